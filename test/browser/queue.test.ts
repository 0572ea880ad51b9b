/**
 * The moderation queue in Chromium (issue 13, item 2): filters and search, the preview pane
 * with the submitter's record, keyboard approve and reject, bulk reject with one reason, and
 * an optimistic action rolled back when the server refuses it.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

const MOD = { email: 'queue-keys@example.com', password: 'moderator-pass-1' }
const SUBMITTER = { email: 'queue-sub@example.com', password: 'submitter-pass-1' }

describe('moderation queue: filters, preview, keyboard, bulk, rollback (Chromium)', () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let adminToken: string

  const statusOf = async (slug: string) => {
    const res = await api(server, 'GET', `/content/${slug}`, undefined, adminToken)
    return { status: res.body.data?.status, reason: res.body.data?.rejectionReason }
  }
  const rows = () => page.locator('tr.queue-row')
  const slugsShown = async () => page.locator('tr.queue-row').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-slug')))
  const open = async (query: string) => {
    await page.goto(`${server.baseUrl}/admin/moderation${query}`)
    await page.locator('.moderation-count').waitFor({ timeout: 50_000 })
    // Hydrated: the keyboard handlers are attached (a key pressed before then is lost).
    await page.locator('.moderation-empty, .moderation-queue[data-keys="ready"]').first().waitFor({ timeout: 50_000 })
  }

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    adminToken = (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken
    expect((await api(server, 'POST', '/users', { ...MOD, username: 'queuekeys', roles: ['moderator'] }, adminToken)).status).toBe(201)
    expect((await api(server, 'POST', '/users', { ...SUBMITTER, username: 'queuesub' }, adminToken)).status).toBe(201)
    expect((await api(server, 'POST', '/tags', { label: 'Rust', slug: 'rust', facet: 'topic' }, adminToken)).status).toBe(201)
    const subToken = (await api(server, 'POST', '/auth/login', SUBMITTER)).body.data.accessToken
    const submit = async (token: string, title: string, url: string, tagSlugs: string[] = []) =>
      expect((await api(server, 'POST', '/content/submit', { title, url, tagSlugs, description: `About ${title}.` }, token)).status).toBe(201)
    // One approved earlier, so the submitter's record is not all zeros.
    await submit(subToken, 'Rust error handling patterns', 'https://blog.rust-lang.org/errors', ['rust'])
    expect((await api(server, 'POST', '/content/rust-error-handling-patterns/approve', {}, adminToken)).status).toBe(200)
    await submit(subToken, 'Rust ownership explained', 'https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html', ['rust'])
    await submit(subToken, 'Rust async in depth', 'https://rust-lang.github.io/async-book/', ['rust'])
    await submit(adminToken, 'Kubernetes networking primer', 'https://kubernetes.io/docs/concepts/services-networking/')
    await submit(adminToken, 'Bulk candidate one', 'https://example.org/bulk-1')
    await submit(adminToken, 'Bulk candidate two', 'https://example.org/bulk-2')
    await submit(adminToken, 'Rollback victim', 'https://example.org/rollback')
    page = await browser.newPage({ viewport: { width: 1500, height: 950 } })
    await signIn(page, server.baseUrl, MOD.email, MOD.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 50_000 })
  })
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  it('filters by tag and submitter, searches, orders, and previews the item with its submitter record', async () => {
    await open('')
    expect(await rows().count()).toBe(6)
    await page.locator('select[name="tag"]').selectOption('rust')
    await page.locator('input[name="submitter"]').fill(SUBMITTER.email)
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.waitForURL(/tag=rust/)
    await expect.poll(slugsShown, { timeout: 15_000 }).toEqual(['rust-ownership-explained', 'rust-async-in-depth'])
    const preview = page.locator('aside.queue-preview')
    expect(await preview.getAttribute('data-slug')).toBe('rust-ownership-explained')
    expect(await preview.locator('.queue-preview-url').getAttribute('href')).toBe('https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html')
    expect(await preview.getByTestId('submitter-record').innerText()).toBe('1 approved · 0 rejected')
    expect(await preview.innerText()).toContain(SUBMITTER.email)
    await page.keyboard.press('j')
    await expect.poll(() => preview.getAttribute('data-slug')).toBe('rust-async-in-depth')
    await screenshot(page, 'queue-filters-preview')

    await open('?tag=rust&sort=newest')
    expect(await slugsShown()).toEqual(['rust-async-in-depth', 'rust-ownership-explained'])
    await open('?q=kubernetes')
    expect(await slugsShown()).toEqual(['kubernetes-networking-primer'])
    await open('?age=7d')
    expect(await rows().count()).toBe(0)
  })

  it('approves with a and rejects with r (reason focused, Enter confirms)', async () => {
    await open('?tag=rust')
    await page.keyboard.press('a')
    await expect.poll(slugsShown, { timeout: 15_000 }).toEqual(['rust-async-in-depth'])
    await expect.poll(() => statusOf('rust-ownership-explained')).toEqual({ status: 'approved', reason: null })
    await page.keyboard.press('r')
    const reason = page.locator('input[name="rejection-reason"]')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('rejection-reason')
    await reason.fill('Covered by the async book entry')
    await reason.press('Enter')
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(0)
    await expect.poll(() => statusOf('rust-async-in-depth')).toEqual({ status: 'rejected', reason: 'Covered by the async book entry' })
  })

  it('bulk rejects the selected items with one reason (x selects)', async () => {
    await open('?q=bulk')
    expect(await slugsShown()).toEqual(['bulk-candidate-one', 'bulk-candidate-two'])
    await page.keyboard.press('x')
    await page.keyboard.press('j')
    await page.keyboard.press('x')
    await page.getByRole('button', { name: 'Reject selected (2)' }).click()
    await page.locator('input[name="rejection-reason"]').fill('Placeholder pages')
    await page.getByRole('button', { name: 'Reject 2 selected' }).click()
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(0)
    // The rows leave at once (optimistically); the two rejects are written one after the other.
    await expect.poll(() => statusOf('bulk-candidate-one'), { timeout: 15_000 }).toEqual({ status: 'rejected', reason: 'Placeholder pages' })
    await expect.poll(() => statusOf('bulk-candidate-two'), { timeout: 15_000 }).toEqual({ status: 'rejected', reason: 'Placeholder pages' })
  })

  it('puts the row back, with the error, when the server refuses an optimistic approval', async () => {
    await open('?q=rollback')
    expect(await slugsShown()).toEqual(['rollback-victim'])
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/api/content/moderation/**', async (route) => {
      await held
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, error: { code: 'service.unavailable', message: 'Simulated outage' } }) })
    })
    await page.locator('tr[data-slug="rollback-victim"]').getByRole('button', { name: 'Approve' }).click()
    // Optimistic: gone before the server answers...
    await expect.poll(() => rows().count(), { timeout: 5_000 }).toBe(0)
    release()
    // ...and back once it refuses.
    await expect.poll(slugsShown, { timeout: 15_000 }).toEqual(['rollback-victim'])
    await expect.poll(() => page.getByText('Simulated outage').count(), { timeout: 10_000 }).toBeGreaterThan(0)
    await page.unroute('**/api/content/moderation/**')
    expect(await statusOf('rollback-victim')).toEqual({ status: 'pending', reason: null })
  })
})
