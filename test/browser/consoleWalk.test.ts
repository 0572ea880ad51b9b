/**
 * The console, walked by construction, in Chromium against the production build with the demo
 * data, as the admin (who may use every view): every collection Payload shows (its list view
 * filtered through the search box, sorted by a column and paged; its create view; the edit view of
 * an existing document with every relationship field opened and an option chosen, every upload
 * field's "choose from existing" opened, the tags chosen through their search box, a field edited
 * and the document saved), the branding global, and every custom view (dashboard, moderation queue,
 * taxonomy, audit) and the account view. The walk fails on any console error, uncaught page error,
 * CSP violation or failed request it did not expect, and when Payload shows a collection, global
 * or custom view this file does not walk. Every page it visits is checked with axe-core (WCAG 2.2
 * A/AA) where the project's own parts are: they may have no serious or critical violation; a
 * sample of Payload's stock pages (STOCK_SAMPLE: one of each kind of markup the console mends) is
 * checked whole, with the same bar. `npm run report:axe` (AXE_FULL_PAGES=1) checks every page whole
 * and writes the counts to test-results/axe.json (docs/testing.md reports them).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { closeBrowser, launchBrowser, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

declare global {
  interface Window {
    __cspViolations?: string[]
  }
}

/** What the walk does in each collection's edit view besides the relationship fields: a field to change, or none (read-only). */
type EditWalk = { field?: { selector: string; append: string }; tags?: boolean; save: boolean }

const EDITS: Record<string, EditWalk> = {
  users: { save: true },
  roles: { field: { selector: '#field-description', append: ' (walked)' }, save: true },
  facets: { field: { selector: '#field-label', append: ' ·' }, save: true },
  surfaces: { field: { selector: '#field-label', append: ' ·' }, save: true },
  groups: { field: { selector: '#field-label', append: ' ·' }, save: true },
  channels: { field: { selector: '#field-label', append: ' ·' }, save: true },
  platforms: { field: { selector: '#field-label', append: ' ·' }, save: true },
  tags: { field: { selector: '#field-label', append: ' ·' }, save: true },
  'tag-renames': { save: false },
  media: { field: { selector: '#field-alt', append: ' ·' }, save: true },
  content: { field: { selector: '#field-description', append: ' (walked)' }, tags: true, save: true },
  notifications: { save: false },
  'moderation-events': { save: false },
}

/** The project's own views and what shows each is ready. */
const CUSTOM_VIEWS: Record<string, { path: string; ready: string }> = {
  dashboard: { path: '/admin', ready: '#tile-pending' },
  moderation: { path: '/admin/moderation', ready: '[data-keys="ready"]' },
  taxonomy: { path: '/admin/taxonomy', ready: '.taxonomy-tree' },
  audit: { path: '/admin/audit', ready: '.audit-count' },
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
/** The whole page's axe counts too (the report, `npm run report:axe`), not only the project's own parts. */
const FULL_PAGES = process.env.AXE_FULL_PAGES === '1'
/**
 * Stock pages checked whole in every run, one of each kind of Payload's markup the console mends
 * (row checkboxes and paginator, selects and relationships, dates, tabs and the Versions pill,
 * multi-selects, the "…" menu, the dashboard): a regression fails the walk. AXE_FULL_PAGES checks all.
 */
const STOCK_SAMPLE = new Set(['list channels', 'list moderation-events', 'edit content', 'edit roles', 'edit moderation-events', 'versions tags', 'account', 'view dashboard'])
type AxeReport = { page: string; part: 'page' | 'own'; violations: { id: string; impact: string | null; nodes: number }[] }

/** The project's own parts of a page (its views, fields and panels), checked on their own. */
const OWN_PARTS = ['.console-view', '.console-dashboard', '.branding-preview', '.tag-slugs-field', '.content-moderation', '.content-moderation-history', '.tag-rename']

describe('the console, every view (Chromium, production build, demo data)', () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let config: Awaited<typeof import('../../payload.config').default>
  const problems: string[] = []
  const walked = new Set<string>()
  const axe: AxeReport[] = []

  beforeAll(async () => {
    config = await (await import('../../payload.config')).default
    // Two serving processes, as production runs on two cores: a save in one, the next view from either.
    server = await startServer({ SEED_DEMO: 'true', WEB_CONCURRENCY: '2' })
    browser = await launchBrowser()
    // axe-core's builder needs a page of an explicit context.
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage()
    await page.addInitScript(() => {
      window.__cspViolations = []
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI}`))
    })
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error on ${page.url()}: ${m.text().slice(0, 300)} (${m.location().url})`)
    })
    page.on('pageerror', (e) => problems.push(`page error on ${page.url()}: ${e.message.slice(0, 300)}`))
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${r.url().replace(server.baseUrl, '')}`)
    })
    page.on('requestfailed', (r) => {
      // A navigation cancels the page's pending fetches (RSC prefetches): that is the browser, not a failure.
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`failed ${r.method()} ${r.url().replace(server.baseUrl, '')}: ${r.failure()?.errorText}`)
    })
    await page.goto(`${server.baseUrl}/admin/login`)
    await page.locator('#field-email').waitFor()
    await checkAxe('login')
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 60_000 })
  }, 240_000)

  afterAll(async () => {
    const dir = path.resolve(import.meta.dirname, '../../test-results')
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, 'axe.json'), JSON.stringify(axe, null, 2))
    await closeBrowser(browser)
    await server?.stop()
  })

  /**
   * axe-core on the project's own parts of the page as it is now: a serious or critical violation
   * there fails the walk. For the report, first the whole page (Payload's stock views: counted, not failed).
   */
  async function checkAxe(name: string) {
    const summary = (r: Awaited<ReturnType<AxeBuilder['analyze']>>) => r.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, nodes: v.nodes.length }))
    if (FULL_PAGES || STOCK_SAMPLE.has(name)) {
      // The whole page, Payload's stock markup included (mended by AccessibleControls and config),
      // once the page's scripts run: a page just loaded shows the server's markup before they do.
      await page.waitForFunction(() => document.documentElement.dataset.accessibleControls === 'on', null, { timeout: 30_000 })
      const whole = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()
      axe.push({ page: name, part: 'page', violations: summary(whole) })
      for (const v of whole.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
        problems.push(`axe ${name} (whole page): ${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}`)
      }
    }
    const present = []
    for (const part of OWN_PARTS) if ((await page.locator(part).count()) > 0) present.push(part)
    if (present.length === 0) return
    const own = await new AxeBuilder({ page }).withTags(AXE_TAGS).include(present).analyze()
    axe.push({ page: name, part: 'own', violations: summary(own) })
    for (const v of own.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
      problems.push(`axe ${name}: ${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}`)
    }
  }

  /** Every problem gathered since the last call, CSP violations of the page included. */
  async function takeProblems(): Promise<string[]> {
    const csp = await page.evaluate(() => window.__cspViolations?.splice(0) ?? []).catch(() => [])
    return [...problems.splice(0), ...csp.map((v) => `CSP violation: ${v}`)]
  }

  const visibleCollections = () =>
    config.collections.filter((c) => !(typeof c.admin?.hidden === 'function' ? true : c.admin?.hidden)).map((c) => c.slug)

  async function firstDocId(slug: string): Promise<string | undefined> {
    // Retried on ECONNRESET: a kept-alive connection the server closed idle as the request went out.
    const res = await page.request.get(`${server.baseUrl}/api/${slug}?limit=1&depth=0&sort=-createdAt`, { maxRetries: 2 })
    return ((await res.json()) as { docs?: { id: string }[] }).docs?.[0]?.id
  }

  async function walkList(slug: string) {
    await page.goto(`${server.baseUrl}/admin/collections/${slug}`)
    await page.locator('.collection-list').waitFor({ timeout: 30_000 })
    await checkAxe(`list ${slug}`)
    const rows = page.locator('.collection-list table tbody tr')
    if ((await rows.count()) === 0) return
    // A filter through the UI: the list's search box.
    const search = page.locator('#search-filter-input')
    if (await search.count()) {
      await search.fill('a')
      await page.waitForURL((url) => url.searchParams.has('search'), { timeout: 15_000 })
      await page.locator('.collection-list').waitFor()
      await search.fill('')
      await page.waitForURL((url) => !url.searchParams.get('search'), { timeout: 15_000 })
    }
    // Sorted by a column.
    const sort = page.locator('.sort-column__asc').first()
    if (await sort.count()) {
      await sort.click()
      await page.waitForURL((url) => url.searchParams.has('sort'), { timeout: 15_000 })
      await page.locator('.collection-list table').waitFor()
    }
    // Paged, when there is a second page.
    const second = page.locator('.paginator__page', { hasText: /^2$/ })
    if (await second.count()) {
      await second.click()
      await page.waitForURL((url) => url.searchParams.get('page') === '2', { timeout: 15_000 })
      await page.locator('.collection-list table').waitFor()
    }
  }

  async function walkCreate(slug: string) {
    await page.goto(`${server.baseUrl}/admin/collections/${slug}/create`)
    await page.locator('#action-save, .doc-controls').first().waitFor({ timeout: 30_000 })
    await checkAxe(`create ${slug}`)
  }

  /** Opens every relationship field and chooses an option (the current one when it is offered, so the document stays consistent). */
  async function chooseRelationships() {
    const fields = page.locator('.field-type.relationship:not(.relationship--read-only)')
    for (let i = 0; i < (await fields.count()); i++) {
      const field = fields.nth(i)
      // A multi-value field has no single value: counted first (innerText would wait its whole timeout for one).
      const single = field.locator('.rs__single-value, .relationship--single-value').first()
      const current = (await single.count()) > 0 ? (await single.innerText()).trim() : ''
      const multi = (await field.locator('.rs__multi-value').count()) > 0 || (await field.locator('.rs__value-container--is-multi').count()) > 0
      await field.locator('.rs__control').click()
      const options = page.locator('.rs__option')
      await options.first().waitFor({ timeout: 15_000 })
      const labels = (await options.allInnerTexts()).map((t) => t.trim())
      if (labels.some((l) => /^Untitled/.test(l))) problems.push(`${await field.getAttribute('id')}: an option without its label (${labels.join(', ')})`)
      const index = Math.max(0, labels.indexOf(current))
      await options.nth(index).click()
      if (multi) {
        // Leave the document as it was: the chosen value off again.
        const removes = field.locator('.rs__multi-value__remove')
        await removes.nth((await removes.count()) - 1).click()
      }
      await page.keyboard.press('Escape')
    }
  }

  /** Opens every upload field's "choose from existing" drawer and closes it. */
  async function openUploads() {
    const buttons = page.locator('.field-type.upload button', { hasText: 'Choose from existing' })
    for (let i = 0; i < (await buttons.count()); i++) {
      await buttons.nth(i).click()
      await page.locator('.list-drawer, .drawer--is-open').first().waitFor({ timeout: 15_000 })
      await page.keyboard.press('Escape')
    }
  }

  async function chooseTag() {
    const box = page.locator('.tag-slugs-field input[role="combobox"]')
    const before = await page.locator('.tag-slugs-field__chip').count()
    await box.click()
    await box.fill('a')
    await page.locator('.tag-slugs-field [role="option"]').first().waitFor({ timeout: 15_000 })
    await box.press('ArrowDown')
    await box.press('Enter')
    await expect.poll(() => page.locator('.tag-slugs-field__chip').count(), { timeout: 5_000 }).toBe(before + 1)
  }

  async function save() {
    await page.locator('#action-save').click()
    await page.locator('.payload-toast-container .toast-success').first().waitFor({ timeout: 20_000 })
    // One toast for one save (they no longer pile up).
    expect(await page.locator('.payload-toast-container .toast-success').count()).toBeLessThanOrEqual(1)
  }

  async function walkEdit(slug: string, edit: EditWalk) {
    const id = await firstDocId(slug)
    if (!id) return
    await page.goto(`${server.baseUrl}/admin/collections/${slug}/${id}`)
    await page.locator('.document-fields, .collection-edit').first().waitFor({ timeout: 30_000 })
    await checkAxe(`edit ${slug}`)
    if (!edit.save) return
    await chooseRelationships()
    await openUploads()
    if (edit.tags) await chooseTag()
    if (edit.field) {
      const input = page.locator(edit.field.selector)
      await input.fill(`${await input.inputValue()}${edit.field.append}`)
    }
    await save()
    // Its history (collections/versions.ts): the versions the saves above wrote.
    if (config.collections.find((c) => c.slug === slug)?.versions) {
      await page.goto(`${server.baseUrl}/admin/collections/${slug}/${id}/versions`)
      await page.locator('.versions, .table, .no-results').first().waitFor({ timeout: 30_000 })
      await checkAxe(`versions ${slug}`)
    }
  }

  it('every collection Payload shows: list (filtered, sorted, paged), create, edit with its relationships, saved', async () => {
    for (const slug of visibleCollections()) {
      const edit = EDITS[slug]
      if (!edit) {
        problems.push(`collection ${slug} is shown by Payload but not walked here: add it to EDITS`)
        continue
      }
      await walkList(slug)
      // The collections the console writes have a create view; the read-only ones do not.
      if (edit.save) await walkCreate(slug)
      await walkEdit(slug, edit)
      walked.add(`collection ${slug}`)
      const found = await takeProblems()
      expect(found, `collection ${slug}`).toEqual([])
    }
  }, 900_000)

  it('every global: branding edited and saved', async () => {
    for (const global of config.globals) {
      await page.goto(`${server.baseUrl}/admin/globals/${global.slug}`)
      await page.locator('#action-save').waitFor({ timeout: 30_000 })
      await checkAxe(`global ${global.slug}`)
      const tagline = page.locator('#field-tagline')
      await tagline.fill('Walked through')
      await save()
      if (global.versions) {
        await page.goto(`${server.baseUrl}/admin/globals/${global.slug}/versions`)
        await page.locator('.versions, .table, .no-results').first().waitFor({ timeout: 30_000 })
        await checkAxe(`versions ${global.slug}`)
      }
      walked.add(`global ${global.slug}`)
      expect(await takeProblems(), `global ${global.slug}`).toEqual([])
    }
  }, 120_000)

  it('every custom view, and the account view', async () => {
    const views = Object.keys(config.admin.components?.views ?? {})
    for (const name of ['dashboard', ...views]) {
      const view = CUSTOM_VIEWS[name]
      if (!view) {
        problems.push(`custom view ${name} is configured but not walked here: add it to CUSTOM_VIEWS`)
        continue
      }
      await page.goto(`${server.baseUrl}${view.path}`)
      await page.locator(view.ready).first().waitFor({ timeout: 30_000 })
      await checkAxe(`view ${name}`)
      if (name === 'moderation' && (await page.locator('.moderation-queue tbody tr').count()) > 1) {
        // Mid-use: the selection moved by key, announced.
        await page.keyboard.press('j')
        await checkAxe('view moderation, mid-use')
      }
      walked.add(`view ${name}`)
      expect(await takeProblems(), `view ${name}`).toEqual([])
    }
    await page.goto(`${server.baseUrl}/admin/account`)
    await page.locator('#field-email, .account').first().waitFor({ timeout: 30_000 })
    await checkAxe('account')
    expect(await takeProblems(), 'account').toEqual([])
  }, 300_000)

  it('walked everything Payload shows', () => {
    const expected = [
      ...visibleCollections().map((s) => `collection ${s}`),
      ...config.globals.map((g) => `global ${g.slug}`),
      ...['dashboard', ...Object.keys(config.admin.components?.views ?? {})].map((v) => `view ${v}`),
    ].sort()
    expect([...walked].sort()).toEqual(expected)
  })
})
