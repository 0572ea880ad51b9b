/**
 * Two people on one document in the console (issue 53.2), in Chromium against the production
 * build: the one taken over is told within seconds, without touching anything; a save from the
 * version they opened is refused with who changed it (the other's edit stays); and a lock ends
 * soon after its tab closes (it stayed three minutes and more).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { LOCK_SECONDS } from '../../collections/editGuard'
import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

const EDITOR = { email: 'together-editor@example.com', password: 'editor-pass-123', username: 'tess' }

describe('two people on one document (Chromium)', () => {
  let server: RunningServer
  let browser: Browser
  let tagId: string

  const signedIn = async (who: { email: string; password: string }) => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 } })
    const page = await context.newPage()
    await signIn(page, server.baseUrl, who.email, who.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 50_000 })
    return page
  }
  const openTag = async (page: Page) => {
    await page.goto(`${server.baseUrl}/admin/collections/tags/${tagId}`)
    await page.locator('#field-label').waitFor({ timeout: 50_000 })
  }

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    const token = (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken
    const role = await api(server, 'POST', '/roles', { name: 'together-tags', permissions: ['tag.manage', 'content.moderate'] }, token)
    expect((await api(server, 'POST', '/users', { ...EDITOR, roles: [role.body.data.id] }, token)).status).toBe(201)
    expect((await api(server, 'POST', '/tags', { label: 'Together', slug: 'together', facet: 'topic' }, token)).status).toBe(201)
    const res = await fetch(`${server.baseUrl}/api/v1/tags/together`)
    expect(res.status).toBe(200)
    const cookie = await fetch(`${server.baseUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })
    const found = await fetch(`${server.baseUrl}/api/tags?where[slug][equals]=together&depth=0`, { headers: { cookie: /payload-token=[^;]+/.exec(cookie.headers.get('set-cookie')!)![0] } })
    tagId = ((await found.json()) as { docs: { id: string }[] }).docs[0]!.id
  }, 240_000)
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  it('taken over: told within seconds; the late save refused naming who; the lock of a closed tab ends soon', async () => {
    const admin = await signedIn(ADMIN)
    await openTag(admin)
    await admin.locator('#field-label').fill('The admin’s unsaved label')
    // The editor opens it: Payload says who holds it, and offers to take over.
    const editor = await signedIn(EDITOR)
    await openTag(editor)
    await editor.getByRole('button', { name: /take over/i }).click({ timeout: 30_000 })
    // The form loads the document again once taken over (a value typed before that is lost with
    // it, and Save is disabled meanwhile): type and save until the save lands.
    const label = async () => (await fetch(`${server.baseUrl}/api/v1/tags/together`).then((r) => r.json())).data.label as string
    await expect
      .poll(
        async () => {
          if ((await label()) === 'The editor’s label') return true
          await editor.locator('#field-label').fill('The editor’s label')
          await editor.locator('#action-save').click({ timeout: 2_000 }).catch(() => undefined)
          await editor.waitForTimeout(500)
          return (await label()) === 'The editor’s label'
        },
        { timeout: 45_000, interval: 250 },
      )
      .toBe(true)
    // The admin, who touched nothing since, is told.
    await expect.poll(() => admin.locator('.last-edited__notice').count(), { timeout: 15_000 }).toBe(1)
    expect(await admin.locator('.last-edited__notice').innerText()).toMatch(/^tess (took over editing|saved this after you opened it)/)
    await screenshot(admin, 'edit-taken-over')
    // Should they save anyway (Payload may let them), the save is refused and says who: nothing lost.
    const saveButton = admin.locator('#action-save')
    if (await saveButton.isEnabled().catch(() => false)) await saveButton.click({ timeout: 5_000 }).catch(() => undefined)
    await admin.waitForTimeout(2_000)
    expect((await fetch(`${server.baseUrl}/api/v1/tags/together`).then((r) => r.json())).data.label).toBe('The editor’s label')
    // The editor's tab closes: its lock ends within seconds, and the admin opens the tag unhindered.
    await editor.context().close()
    await admin.waitForTimeout((LOCK_SECONDS + 3) * 1000)
    await openTag(admin)
    await admin.waitForTimeout(1_500)
    expect(await admin.getByRole('button', { name: /take over/i }).count()).toBe(0)
    expect(await admin.locator('#field-label').isEditable()).toBe(true)
    await admin.context().close()
  }, 240_000)
})
