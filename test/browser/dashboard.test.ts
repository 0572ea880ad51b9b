/**
 * The console's dashboard and audit trail in Chromium (issue 13, items 1 and 3): the tiles
 * with their numbers and links, the filterable audit log, and an item's history sidebar.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

describe('dashboard and audit log (Chromium)', () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let adminToken: string
  let restoredId: string

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    adminToken = (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken
    expect((await api(server, 'POST', '/tags', { label: 'Databases', slug: 'databases', facet: 'topic' }, adminToken)).status).toBe(201)
    const submit = async (title: string, tagSlugs: string[] = []) => {
      const res = await api(server, 'POST', '/content/submit', { title, url: `https://example.org/${encodeURIComponent(title)}`, tagSlugs }, adminToken)
      expect(res.status).toBe(201)
      return res.body.data as { id: string; slug: string }
    }
    await submit('Postgres indexing guide', ['databases'])
    await submit('SQLite in production', ['databases'])
    await submit('Spam landing page')
    await submit('Still waiting for review')
    const restored = await submit('Deleted then restored', ['databases'])
    restoredId = restored.id
    for (const slug of ['postgres-indexing-guide', 'sqlite-in-production', 'deleted-then-restored']) {
      expect((await api(server, 'POST', `/content/${slug}/approve`, {}, adminToken)).status).toBe(200)
    }
    expect((await api(server, 'POST', '/content/spam-landing-page/reject', { reason: 'Advertising' }, adminToken)).status).toBe(200)
    expect((await api(server, 'DELETE', '/content/deleted-then-restored', undefined, adminToken)).status).toBe(200)
    expect((await api(server, 'POST', '/content/deleted-then-restored/restore', {}, adminToken)).status).toBe(200)
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 50_000 })
  })
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  it('shows pending, the 30-day chart, top tags and recent activity, each linking on', async () => {
    await page.locator('#tile-pending').waitFor({ timeout: 50_000 })
    expect(await page.getByTestId('pending-count').innerText()).toBe('1')
    expect(await page.getByTestId('pending-oldest').innerText()).toMatch(/^Oldest submitted (just now|\d+ min ago)$/)
    const today = new Date().toISOString().slice(0, 10)
    const bar = page.locator(`#tile-decisions g[data-day="${today}"] title`)
    expect(await bar.textContent()).toBe(`${today}: 3 approved, 1 rejected`)
    expect(await page.locator('#tile-decisions svg g').count()).toBe(30)
    expect(await page.locator('#tile-tags li').allInnerTexts()).toEqual(['Databases · 3'])
    const activity = await page.locator('#tile-activity .event-line').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))
    expect(activity.slice(0, 3)).toEqual(['restore', 'delete', 'reject'])
    expect(await page.locator('#tile-activity').innerText()).toContain('“Advertising”')
    // Items by their title, not their slug.
    expect(await page.locator('#tile-activity .event-line[data-action="reject"] a').innerText()).toBe('Spam landing page')
    await screenshot(page, 'dashboard')
    await page.locator('#tile-pending').click()
    await page.waitForURL(/\/admin\/moderation\?sort=oldest/)
    await expect.poll(() => page.locator('tr.queue-row').count(), { timeout: 20_000 }).toBe(1)
  })

  it('lists the audit trail, filtered by action, and shows an item its history', async () => {
    await page.goto(`${server.baseUrl}/admin/audit`)
    await page.locator('table.audit-log').waitFor({ timeout: 50_000 })
    expect(await page.locator('table.audit-log tbody tr').count()).toBe(6)
    await page.locator('select[name="action"]').selectOption('reject')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.waitForURL(/action=reject/)
    await expect.poll(() => page.locator('table.audit-log tbody tr').count(), { timeout: 15_000 }).toBe(1)
    const row = page.locator('table.audit-log tbody tr').first()
    expect(await row.getAttribute('data-target')).toBe('spam-landing-page')
    expect(await row.locator('a').first().innerText()).toBe('Spam landing page')
    const text = await row.innerText()
    expect(text).toContain(ADMIN.email)
    expect(text).toContain('pending → rejected')
    expect(text).toContain('Advertising')
    await page.goto(`${server.baseUrl}/admin/audit?target=deleted-then-restored`)
    await page.locator('table.audit-log').waitFor({ timeout: 50_000 })
    expect(await page.locator('table.audit-log tbody tr').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-action')))).toEqual(['restore', 'delete', 'approve'])
    await screenshot(page, 'audit-log')

    await page.goto(`${server.baseUrl}/admin/collections/content/${restoredId}`)
    const history = page.locator('.content-moderation-history li')
    await expect.poll(() => history.count(), { timeout: 50_000 }).toBe(3)
    expect(await history.evaluateAll((lis) => lis.map((l) => l.getAttribute('data-action')))).toEqual(['restore', 'delete', 'approve'])
  })
})
