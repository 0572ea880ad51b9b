/**
 * The queue as a team works it (issue 53: 1, 3, 4), in Chromium against the production build:
 * - one moderator at machine speed (decisions 50 ms apart, reasons typed as fast as keys go):
 *   every item ends as the moderator meant, checked item by item against the API (once a reject
 *   became an approve: a refresh brought a decided row back, the reason field unmounted while
 *   typed into, and the typed `a`s reached the shortcuts);
 * - two moderators at once: a row the other decided leaves the open queue, saying who; the same
 *   decision at once is a success for both; a different one made first is said, not put back; a
 *   row the other has open in the edit view says so (a light claim);
 * - a phone (390 × 844 and 360 × 740): the queue's rows and buttons are there and take a tap, and
 *   no custom view is wider than the screen.
 */
import type { Browser, BrowserContext, Page, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

const ANN = { email: 'ann-moderator@example.com', password: 'moderator-pass-ann', username: 'ann' }
const BEN = { email: 'ben-moderator@example.com', password: 'moderator-pass-ben', username: 'ben' }

describe('the queue for a team (Chromium)', () => {
  let server: RunningServer
  let browser: Browser
  let adminToken: string
  let submitter: string
  const contexts: BrowserContext[] = []
  let n = 0

  const statusOf = async (slug: string) => {
    const res = await api(server, 'GET', `/content/${slug}`, undefined, adminToken)
    return { status: res.body.data?.status as string, reason: (res.body.data?.rejectionReason ?? null) as string | null }
  }
  /** `count` new pending items named after `label`, oldest first; their slugs. */
  const submitMany = async (label: string, count: number) => {
    const slugs: string[] = []
    for (let i = 0; i < count; i++) {
      n += 1
      const res = await api(server, 'POST', '/content/submit', { title: `${label} ${i + 1}`, url: `https://example.org/team/${n}` }, submitter)
      expect(res.status).toBe(201)
      slugs.push(res.body.data.slug)
      // Distinct submission times: the queue's order is theirs.
      await new Promise((r) => setTimeout(r, 15))
    }
    return slugs
  }
  const signedIn = async (who: { email: string; password: string }, viewport = { width: 1400, height: 950 }, touch = false) => {
    const context = await browser.newContext({ viewport, hasTouch: touch, isMobile: touch })
    contexts.push(context)
    const page = await context.newPage()
    await signIn(page, server.baseUrl, who.email, who.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 50_000 })
    return page
  }
  const openQueue = async (page: Page, query: string) => {
    await page.goto(`${server.baseUrl}/admin/moderation${query}`)
    await page.locator('.moderation-empty, .moderation-queue[data-keys="ready"]').first().waitFor({ timeout: 50_000 })
  }
  const shown = (page: Page) => page.locator('tr.queue-row').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-slug')))

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    adminToken = (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken
    for (const who of [ANN, BEN]) expect((await api(server, 'POST', '/users', { ...who, roles: ['moderator'] }, adminToken)).status).toBe(201)
    expect((await api(server, 'POST', '/users', { email: 'team-sub@example.com', username: 'teamsub', password: 'submitter-pass-1' }, adminToken)).status).toBe(201)
    submitter = (await api(server, 'POST', '/auth/login', { email: 'team-sub@example.com', password: 'submitter-pass-1' })).body.data.accessToken
  }, 240_000)
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined)
    await closeBrowser(browser)
    await server?.stop()
  })

  it('at machine speed, 50 ms apart, every item ends as the moderator meant (checked against the API)', async () => {
    const slugs = await submitMany('Machine speed', 12)
    const page = await signedIn(ANN)
    // A slow network: each decision is in flight for 400 ms, so refreshes and status asks land
    // while later keys are pressed (the race in which a reject once became an approve).
    await page.route('**/api/content/moderation/*/*', async (route) => {
      await new Promise((r) => setTimeout(r, 400))
      await route.continue()
    })
    await openQueue(page, '?q=machine%20speed')
    await expect.poll(() => shown(page), { timeout: 20_000 }).toEqual(slugs)
    // The plan: item by item, as the rows come (the first row each time).
    const plan: ({ action: 'approve' } | { action: 'reject'; reason: string })[] = [
      { action: 'approve' },
      { action: 'reject', reason: 'Paywalled' },
      { action: 'approve' },
      { action: 'reject', reason: 'a quick aside: already covered' },
      { action: 'reject', reason: 'Spam' },
      { action: 'approve' },
      { action: 'approve' },
      { action: 'reject', reason: 'Paywalled again' },
      { action: 'approve' },
      { action: 'reject', reason: 'Off topic' },
      { action: 'approve' },
      { action: 'approve' },
    ]
    for (const step of plan) {
      if (step.action === 'approve') await page.keyboard.press('a')
      else {
        await page.keyboard.press('r')
        // Typed as fast as keys go, an `a` among them: none may reach the shortcuts.
        await page.keyboard.type(step.reason, { delay: 0 })
        await page.keyboard.press('Enter')
      }
      await page.waitForTimeout(50)
    }
    await expect.poll(() => page.locator('tr.queue-row').count(), { timeout: 20_000 }).toBe(0)
    for (const [i, slug] of slugs.entries()) {
      const step = plan[i]!
      await expect
        .poll(() => statusOf(slug), { timeout: 10_000 })
        .toEqual(step.action === 'approve' ? { status: 'approved', reason: null } : { status: 'rejected', reason: step.reason })
    }
    expect(await page.locator('.moderation-count').innerText()).toMatch(/^0 pending/)
  }, 180_000)

  it('two moderators at once: the other’s decision leaves the open queue and says who; the same decision at once succeeds for both; a different one made first is said, not put back', async () => {
    const [first, second, third] = await submitMany('Two at once', 3)
    const ann = await signedIn(ANN)
    const ben = await signedIn(BEN)
    await openQueue(ann, '?q=two%20at%20once')
    await openQueue(ben, '?q=two%20at%20once')
    await expect.poll(() => shown(ann)).toEqual([first, second, third])
    // Ben approves the first; Ann's open queue loses it within its next status ask, naming Ben.
    await ben.locator(`tr[data-slug="${first}"]`).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => shown(ann), { timeout: 15_000 }).toEqual([second, third])
    await expect.poll(() => ann.locator('.queue-announcer').innerText(), { timeout: 5_000 }).toContain('approved by ben')
    await expect.poll(() => ann.locator('.moderation-count').innerText(), { timeout: 5_000 }).toMatch(/^2 pending/)
    // Both approve the second at once: both are told it is approved; nobody sees an error.
    const errors: string[] = []
    for (const p of [ann, ben]) p.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    // A decision refreshes the page's list from the server 0.4 s later: Ann's must have been
    // answered before Ben's next decision, or it would take the third row away before she clicks
    // it (a refresh that came late on a busy machine did). A refresh is an `_rsc` request; so is a
    // link's prefetch, which a refresh starts again and which once answered first (CI, 2026-11-30).
    const refresh = (r: Response) => r.url().includes('_rsc=') && !r.request().headers()['next-router-prefetch']
    const annRefreshed = ann.waitForResponse(refresh, { timeout: 30_000 })
    await Promise.all([ann, ben].map((p) => p.locator(`tr[data-slug="${second}"]`).getByRole('button', { name: 'Approve' }).click()))
    await expect.poll(() => statusOf(second!)).toEqual({ status: 'approved', reason: null })
    for (const p of [ann, ben]) {
      await expect.poll(() => shown(p), { timeout: 10_000 }).toEqual([third])
      expect(await p.locator('.queue-row--failed').count()).toBe(0)
    }
    await annRefreshed
    // Ben rejects the third; Ann, whose queue has not heard yet, approves it: she is told who
    // rejected it, and the row stays out of her queue. Her page hears by two ways, both held back
    // until she has clicked: its status asks, and a refresh of its list.
    await ann.route('**/api/content/moderation/status**', (route) => route.abort())
    let letRefreshesGo!: () => void
    const refreshesHeld = new Promise<void>((resolve) => (letRefreshesGo = resolve))
    await ann.route(
      (url) => url.searchParams.has('_rsc'),
      async (route) => {
        await refreshesHeld
        await route.continue()
      },
    )
    await ben.locator(`tr[data-slug="${third}"]`).getByRole('button', { name: 'Reject' }).click()
    await ben.locator('input[name="rejection-reason"]').fill('Duplicate')
    await ben.locator('input[name="rejection-reason"]').press('Enter')
    await expect.poll(() => statusOf(third!)).toEqual({ status: 'rejected', reason: 'Duplicate' })
    await ann.locator(`tr[data-slug="${third}"]`).getByRole('button', { name: 'Approve' }).click()
    letRefreshesGo()
    await expect.poll(() => ann.locator('.queue-announcer').innerText(), { timeout: 5_000 }).toContain('already rejected by ben')
    await expect.poll(() => shown(ann), { timeout: 5_000 }).toEqual([])
    expect(await ann.locator('.queue-row--failed').count()).toBe(0)
    await ann.unroute('**/api/content/moderation/status**')
    expect(await statusOf(third!)).toEqual({ status: 'rejected', reason: 'Duplicate' })
    // The 422 Ann's approve met is an answer the page expected, not an error.
    expect(errors.filter((e) => !/Failed to load resource|ERR_FAILED/.test(e))).toEqual([])
    await screenshot(ann, 'queue-two-moderators')
  }, 180_000)

  it('a light claim: an item the other moderator has open in the edit view says so in the queue, and stops saying it once they leave', async () => {
    const [slug] = await submitMany('Claimed', 1)
    const ann = await signedIn(ANN)
    const ben = await signedIn(BEN)
    await openQueue(ann, '?q=claimed')
    await expect.poll(() => shown(ann)).toEqual([slug])
    // Ben opens the item and starts editing it.
    const id = (await api(server, 'GET', `/content/${slug}`, undefined, adminToken)).body.data.id as string
    await ben.goto(`${server.baseUrl}/admin/collections/content/${id}`)
    await ben.locator('.document-fields, .collection-edit').first().waitFor({ timeout: 30_000 })
    // Payload takes the document's lock when its editor starts changing it.
    await ben.locator('#field-title').click()
    await ben.keyboard.type(' (checking)')
    const claim = ann.locator(`tr[data-slug="${slug}"] .queue-editing`)
    await expect.poll(() => claim.innerText().catch(() => ''), { timeout: 20_000 }).toBe('ben is editing this')
    expect(await ann.locator('aside.queue-preview .queue-editing').innerText()).toContain('ben is editing this item')
    // Ben leaves without saving: the lock ends with the page, and the claim with it.
    ben.once('dialog', (d) => void d.accept())
    await ben.goto(`${server.baseUrl}/admin`)
    await expect.poll(() => claim.count(), { timeout: 40_000 }).toBe(0)
  }, 180_000)

  it.each([
    { width: 390, height: 844 },
    { width: 360, height: 740 },
  ])('on a phone ($width × $height): rows and their buttons are there, a tap approves; no custom view is wider than the screen', async (viewport) => {
    const [slug] = await submitMany(`Phone ${viewport.width}`, 1)
    const page = await signedIn(ANN, viewport, true)
    await openQueue(page, `?q=phone%20${viewport.width}`)
    const row = page.locator(`tr[data-slug="${slug}"]`)
    await row.waitFor({ timeout: 20_000 })
    const box = await row.boundingBox()
    expect(box!.width).toBeGreaterThan(viewport.width * 0.8)
    const approve = row.getByRole('button', { name: 'Approve' })
    const button = (await approve.boundingBox())!
    expect(button.height).toBeGreaterThanOrEqual(44)
    expect(button.x + button.width).toBeLessThanOrEqual(viewport.width)
    await approve.tap()
    await expect.poll(() => statusOf(slug!), { timeout: 15_000 }).toEqual({ status: 'approved', reason: null })
    await screenshot(page, `queue-phone-${viewport.width}`)
    for (const view of ['/admin', '/admin/moderation', '/admin/taxonomy', '/admin/audit', '/admin/globals/branding']) {
      await page.goto(`${server.baseUrl}${view}`)
      await page.waitForLoadState('networkidle')
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(wider, `${view} overflows a ${viewport.width} px screen by ${wider} px`).toBeLessThanOrEqual(0)
    }
  }, 180_000)
})
