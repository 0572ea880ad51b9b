import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

describe('editors in the admin console (Chromium)', () => {
  let server: RunningServer
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    const admin = (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken
    expect((await api(server, 'POST', '/roles', { name: 'editor', permissions: ['tag.manage', 'catalog.manage'] }, admin)).status).toBe(201)
    expect((await api(server, 'POST', '/users', { email: 'editor@example.com', username: 'editor', password: 'editor-password-1', roles: ['editor'] }, admin)).status).toBe(201)
    await api(server, 'POST', '/catalog/surfaces', { slug: 'learn', label: 'Learn', routePrefix: '/learn', browseMode: 'grid', accentColor: '#2563eb' }, admin)
    await api(server, 'POST', '/catalog/surfaces/learn/groups', { slug: 'web', label: 'Web development', color: '#16a34a' }, admin)
    await api(server, 'POST', '/catalog/surfaces/learn/groups/web/channels', { slug: 'css', label: 'CSS' }, admin)
    // A second group with channels of its own: the item's channel is offered from its group only.
    await api(server, 'POST', '/catalog/surfaces/learn/groups', { slug: 'design', label: 'Design', color: '#db2777' }, admin)
    for (const c of [{ slug: 'figma', label: 'Figma' }, { slug: 'type', label: 'Typography' }]) {
      expect((await api(server, 'POST', '/catalog/surfaces/learn/groups/design/channels', c, admin)).status).toBe(201)
    }
    expect((await api(server, 'POST', '/tags', { label: 'Old Name', facet: 'topic' }, admin)).status).toBe(201)
    const item = await api(server, 'POST', '/content/submit', { title: 'Tagged item', url: 'https://example.com/t', tagSlugs: ['old-name'], group: 'web' }, admin)
    expect(item.status).toBe(201)
    expect((await api(server, 'POST', '/content/tagged-item/approve', undefined, admin)).status).toBe(200)
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await signIn(page, server.baseUrl, 'editor@example.com', 'editor-password-1')
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/')
  })
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  it('renames a tag from its edit view; content and the audit record follow', async () => {
    const found = await (await page.request.get(`${server.baseUrl}/api/tags?where[slug][equals]=old-name`)).json()
    const id = found.docs[0].id
    await page.goto(`${server.baseUrl}/admin/collections/tags/${id}`)
    await expect.poll(() => page.locator('.tag-rename__impact').innerText(), { timeout: 20_000 }).toContain('update 1 content item')
    await page.locator('input[name="tag-new-slug"]').fill('new-name')
    await page.locator('.tag-rename').getByRole('button', { name: 'Rename' }).click()
    await expect.poll(async () => (await api(server, 'GET', '/tags/new-name')).status, { timeout: 15_000 }).toBe(200)
    expect((await api(server, 'GET', '/tags/old-name')).status).toBe(404)
    expect((await api(server, 'GET', '/content/tagged-item')).body.data.tagSlugs).toEqual(['new-name'])
    const audit = await (await page.request.get(`${server.baseUrl}/api/tag-renames?depth=0`)).json()
    expect(audit.docs).toHaveLength(1)
    expect(audit.docs[0]).toMatchObject({ oldSlug: 'old-name', newSlug: 'new-name', contentCount: 1 })
  })

  it('shows the taxonomy tree in display order', async () => {
    await page.goto(`${server.baseUrl}/admin/taxonomy`)
    const tree = page.locator('.taxonomy-tree')
    await expect.poll(() => tree.innerText(), { timeout: 20_000 }).toContain('Web development')
    expect(await tree.innerText()).toContain('CSS')
    await screenshot(page, 'taxonomy-tree')
  })

  it('changes the primary colour with the picker field; /meta changes its ETag', async () => {
    const before = await api(server, 'GET', '/meta')
    const etag = before.headers.get('etag')!
    await page.goto(`${server.baseUrl}/admin/globals/branding`)
    const input = page.locator('#field-primaryColor')
    await input.waitFor({ timeout: 20_000 })
    await input.fill('#ff5500')
    await expect.poll(() => page.locator('.branding-preview').getAttribute('class'), { timeout: 5_000 }).toBeTruthy()
    await screenshot(page, 'branding-editor')
    await page.locator('#action-save').click()
    await expect
      .poll(async () => (await api(server, 'GET', '/meta')).body.data.primaryColor, { timeout: 15_000 })
      .toBe('#ff5500')
    const after = await fetch(`${server.baseUrl}/api/v1/meta`, { headers: { 'If-None-Match': etag } })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(etag)
  })

  it("offers an item's channel from its group only: none before a group, emptied when the group changes (issue 53.8)", async () => {
    const admin = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await signIn(admin, server.baseUrl, ADMIN.email, ADMIN.password)
    await admin.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/')
    const found = await (await admin.request.get(`${server.baseUrl}/api/content?where[title][equals]=Tagged item&depth=0`)).json()
    const id = found.docs[0].id as string
    await admin.goto(`${server.baseUrl}/admin/collections/content/${id}`)
    const channel = admin.locator('#field-channel')
    await channel.locator('.rs__control').waitFor({ timeout: 30_000 })
    const optionsOf = async (field: 'channel' | 'group') => {
      await admin.locator(`#field-${field} .rs__control`).click()
      await expect.poll(() => admin.locator('.rs__menu .rs__option').count(), { timeout: 10_000 }).toBeGreaterThan(0)
      // The first page is fetched when the menu opens (Payload's lazy loading): wait for it to settle.
      await admin.waitForLoadState('networkidle')
      return admin.locator('.rs__menu .rs__option').allInnerTexts()
    }
    const choose = async (field: 'channel' | 'group', label: string) => {
      await optionsOf(field)
      // The form's state goes to the server and back (a server action) before the next move: Payload
      // does not send again a change made while that request is in flight.
      const formState = admin.waitForResponse((r) => r.request().method() === 'POST' && r.request().headers()['next-action'] !== undefined, { timeout: 15_000 })
      await admin.locator('.rs__menu .rs__option', { hasText: label }).first().click()
      await formState
    }
    // The item is in Web development: its channels only, not Design's.
    expect(await optionsOf('channel')).toEqual(['CSS'])
    await admin.keyboard.press('Escape')
    await choose('channel', 'CSS')
    await expect.poll(() => channel.locator('.rs__single-value').innerText()).toBe('CSS')
    // Another group: the channel is emptied at once, and the new group's channels are the choices.
    await choose('group', 'Design')
    await expect.poll(() => channel.locator('.rs__single-value').count(), { timeout: 10_000 }).toBe(0)
    // The form's state comes back from the server with the new group's filter (a round trip after the change).
    await expect
      .poll(
        async () => {
          const options = (await optionsOf('channel')).sort()
          await admin.keyboard.press('Escape')
          return options
        },
        { timeout: 15_000, interval: 500 },
      )
      .toEqual(['Figma', 'Typography'])
    await choose('channel', 'Typography')
    await screenshot(admin, 'content-channel-of-group')
    await admin.locator('#action-save').click()
    await expect
      .poll(async () => (await api(server, 'GET', '/content/tagged-item')).body.data, { timeout: 15_000 })
      .toMatchObject({ group: 'design', channel: 'type' })
    // No group: the channel waits for one (read-only), and a channel chosen before is emptied.
    await admin.locator('#field-group .clear-indicator').first().click()
    await expect.poll(() => channel.locator('.rs__single-value').count(), { timeout: 10_000 }).toBe(0)
    await expect.poll(() => admin.locator('#field-channel.relationship--read-only').count()).toBe(1)
    await admin.close()
  })
})
