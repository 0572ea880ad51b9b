import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

describe('moderation queue in the admin console (Chromium)', () => {
  let server: RunningServer
  let browser: Browser
  let adminToken: string

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    adminToken = (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken
    const mod = await api(server, 'POST', '/users', { email: 'queue-mod@example.com', username: 'queuemod', password: 'moderator-pass-1', roles: ['moderator'] }, adminToken)
    expect(mod.status).toBe(201)
    for (const title of ['Approve me in the browser', 'Reject me in the browser']) {
      // One URL per item: a URL already submitted is 409 content.duplicate.
      const res = await api(server, 'POST', '/content/submit', { title, url: `https://example.com/browser/${title.split(' ')[0]!.toLowerCase()}` }, adminToken)
      expect(res.status).toBe(201)
    }
  })
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  it('lets a moderator approve one item and reject another with a reason', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await signIn(page, server.baseUrl, 'queue-mod@example.com', 'moderator-pass-1')
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/')
    // The header's queue link (the nav's is behind its toggle at this width: a click on it waited
    // 20 s, then the test went to the URL itself).
    await page.locator('a.queue-shortcut').click({ timeout: 20_000 })
    await page.waitForURL(/\/admin\/moderation/)
    const approveRow = page.locator('tr[data-slug="approve-me-in-the-browser"]')
    const rejectRow = page.locator('tr[data-slug="reject-me-in-the-browser"]')
    await expect.poll(() => approveRow.count(), { timeout: 20_000 }).toBe(1)
    expect(await rejectRow.count()).toBe(1)
    await screenshot(page, 'moderation-queue')

    await approveRow.getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => approveRow.count(), { timeout: 15_000 }).toBe(0)
    // The row leaves at once (optimistically); the server's answer is the toast.
    await page.locator('.payload-toast-container .toast-success', { hasText: 'Approved “Approve me in the browser”.' }).waitFor({ timeout: 30_000 })

    await rejectRow.getByRole('button', { name: 'Reject' }).click()
    // The reason field opens in the queue's reject bar (one for row and bulk rejects), focused.
    await page.locator('input[name="rejection-reason"]').fill('Duplicate of an existing item')
    await page.getByRole('button', { name: 'Confirm reject' }).click()
    await expect.poll(() => rejectRow.count(), { timeout: 15_000 }).toBe(0)
    await page.locator('.payload-toast-container .toast-success', { hasText: 'Rejected “Reject me in the browser”.' }).waitFor({ timeout: 30_000 })
    await screenshot(page, 'moderation-queue-after')
    await page.close()

    const publicList = await api(server, 'GET', '/content?q=browser')
    const slugs = publicList.body.data.map((d: any) => d.slug)
    expect(slugs).toContain('approve-me-in-the-browser')
    expect(slugs).not.toContain('reject-me-in-the-browser')
    const rejected = await api(server, 'GET', '/content?status=rejected', undefined, adminToken)
    const item = rejected.body.data.find((d: any) => d.slug === 'reject-me-in-the-browser')
    expect(item).toMatchObject({ status: 'rejected', rejectionReason: 'Duplicate of an existing item' })
  })
})
