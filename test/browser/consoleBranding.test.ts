/**
 * The console wears the team's branding (issue 53.5) and names people (53.6), in Chromium against
 * the production build: after the branding global's name and colour change, the sign-in page
 * shows the name, the header the icon (the name's first letter on the accent), the tab's title the
 * name, and primary buttons the accent; the help speaks an editor's language. A moderator sees an
 * item's submitter by email and meets no request refused on the views it uses.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

const MOD = { email: 'brand-mod@example.com', password: 'moderator-pass-1', username: 'brandmod' }

describe('the console wears the branding and names people (Chromium)', () => {
  let server: RunningServer
  let browser: Browser

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    const admin = (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken
    expect((await api(server, 'POST', '/users', { ...MOD, roles: ['moderator'] }, admin)).status).toBe(201)
    const submitted = await api(server, 'POST', '/content/submit', { title: 'Named submitter item', url: 'https://example.org/named' }, admin)
    expect(submitted.status).toBe(201)
    // The branding an editor sets, through the console's own REST as the console saves it.
    const cookie = await consoleCookie(server)
    const res = await fetch(`${server.baseUrl}/api/globals/branding`, {
      method: 'POST',
      headers: { cookie, origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Field Notes', primaryColor: '#7c3aed' }),
    })
    expect(res.status, await res.text()).toBe(200)
  }, 240_000)
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  async function consoleCookie(s: RunningServer): Promise<string> {
    const res = await fetch(`${s.baseUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })
    return `payload-token=${/payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`
  }

  it('sign-in page, header, tab title and primary buttons follow the branding global', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } })
    await page.goto(`${server.baseUrl}/admin/login`)
    await expect.poll(() => page.locator('.brand-logo').getAttribute('data-brand-name'), { timeout: 30_000 }).toBe('Field Notes')
    expect(await page.locator('.brand-logo__name').innerText()).toBe('Field Notes')
    await expect.poll(() => page.title(), { timeout: 10_000 }).toMatch(/· Field Notes$/)
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 50_000 })
    await expect.poll(() => page.title(), { timeout: 10_000 }).toMatch(/· Field Notes$/)
    expect(await page.locator('.brand-icon').first().getAttribute('data-brand-name')).toBe('Field Notes')
    expect(await page.locator('.brand-icon__initial').first().innerText()).toBe('F')
    await page.goto(`${server.baseUrl}/admin/collections/tags/create`)
    await page.locator('#field-label').fill('Branded')
    const save = page.locator('.btn--style-primary:not(.btn--disabled)').first()
    await save.waitFor({ timeout: 30_000 })
    await expect.poll(() => save.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(124, 58, 237)')
    await page.goto(`${server.baseUrl}/admin/globals/branding`)
    const help = await page.locator('.field-description').allInnerTexts()
    expect(help.join(' ')).not.toMatch(/APP_[A-Z_]+/)
    expect(help.join(' ')).toContain('The name people see')
    await screenshot(page, 'console-branding')
    await page.close()
  }, 180_000)

  it('a moderator sees the submitter by email, and the views it uses make no request it is refused', async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 } })
    const page = await context.newPage()
    const refused: string[] = []
    page.on('response', (r) => {
      if (r.url().includes('/api/') && [401, 403].includes(r.status())) refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`)
    })
    await signIn(page, server.baseUrl, MOD.email, MOD.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 50_000 })
    const item = (await api(server, 'GET', '/content?status=pending&q=named%20submitter', undefined, (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken)).body.data[0]
    await page.goto(`${server.baseUrl}/admin/collections/content/${item.id}`)
    const submittedBy = page.locator('#field-submittedBy')
    await submittedBy.waitFor({ timeout: 30_000 })
    await expect.poll(() => submittedBy.innerText(), { timeout: 15_000 }).toContain(ADMIN.email)
    expect(await submittedBy.innerText()).not.toContain('Untitled')
    await page.goto(`${server.baseUrl}/admin/account`)
    await page.locator('#field-email').waitFor({ timeout: 30_000 })
    await page.waitForLoadState('networkidle')
    // The Users list is for those who manage users: not in a moderator's nav.
    expect(await page.locator('a[href="/admin/collections/users"]').count()).toBe(0)
    expect(refused).toEqual([])
    await context.close()
  }, 180_000)
})
