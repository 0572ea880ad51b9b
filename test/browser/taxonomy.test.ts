/**
 * Editing the taxonomy tree in Chromium, over the demo deployment (SEED_DEMO): drag a group
 * above another, move a channel with Alt+ArrowUp, deactivate a channel inline, add a channel
 * from its group. Each change is checked where the extension sees it: GET /api/v1/catalog.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

type CatalogSurface = { slug: string; groups: { slug: string; channels: { slug: string }[] }[] }

describe('editing the taxonomy tree (Chromium)', () => {
  let server: RunningServer
  let browser: Browser
  let page: Page

  const catalog = async (): Promise<CatalogSurface[]> => (await api(server, 'GET', '/catalog')).body.data.surfaces
  const groupsOf = async (surface: string) => (await catalog()).find((s) => s.slug === surface)!.groups.map((g) => g.slug)
  const channelsOf = async (surface: string, group: string) =>
    (await catalog()).find((s) => s.slug === surface)!.groups.find((g) => g.slug === group)!.channels.map((c) => c.slug)
  const row = (kind: string, slug: string) => page.locator(`.taxonomy-node--${kind}[data-slug="${slug}"] > [data-tree-row]`)
  const announced = () => page.locator('.taxonomy-tree__announce').innerText()

  beforeAll(async () => {
    server = await startServer({ SEED_DEMO: 'true' })
    browser = await launchBrowser()
    const admin = (await api(server, 'POST', '/auth/login', ADMIN)).body.data.accessToken
    expect((await api(server, 'POST', '/roles', { name: 'cataloguer', permissions: ['catalog.manage'] }, admin)).status).toBe(201)
    const user = { email: 'cataloguer@example.com', username: 'cataloguer', password: 'cataloguer-password-1', roles: ['cataloguer'] }
    expect((await api(server, 'POST', '/users', user, admin)).status).toBe(201)
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    await signIn(page, server.baseUrl, user.email, user.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/')
    await page.goto(`${server.baseUrl}/admin/taxonomy`)
    await row('group', 'data').waitFor({ timeout: 50_000 })
  }, 180_000)
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  it('drags a group above another: the catalog order changes, and the tree keeps it after a reload', async () => {
    expect(await groupsOf('learn')).toEqual(['programming', 'data'])
    const etag = (await api(server, 'GET', '/catalog')).headers.get('etag')
    await row('group', 'data').dragTo(row('group', 'programming'), { targetPosition: { x: 60, y: 4 } })
    await expect.poll(() => groupsOf('learn'), { timeout: 15_000 }).toEqual(['data', 'programming'])
    expect((await api(server, 'GET', '/catalog')).headers.get('etag')).not.toBe(etag)
    await expect.poll(announced, { timeout: 5_000 }).toBe('Data moved to position 1 of 2.')
    await screenshot(page, 'taxonomy-drag')
    await page.reload()
    await row('group', 'data').waitFor({ timeout: 50_000 })
    const onScreen = await page.locator('.taxonomy-node--surface[data-slug="learn"] .taxonomy-node--group').evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')))
    expect(onScreen).toEqual(['data', 'programming'])
  })

  it('moves a channel up with Alt+ArrowUp, keeps the focus on it and announces the move', async () => {
    expect(await channelsOf('learn', 'programming')).toEqual(['web', 'systems', 'languages'])
    await row('channel', 'systems').focus()
    await page.keyboard.press('Alt+ArrowUp')
    await expect.poll(() => channelsOf('learn', 'programming'), { timeout: 15_000 }).toEqual(['systems', 'web', 'languages'])
    await expect.poll(announced, { timeout: 5_000 }).toBe('Systems programming moved to position 1 of 3.')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-slug'))).toBe('systems')
    // At the top already: nothing moves, and the reader is told why.
    await page.keyboard.press('Alt+ArrowUp')
    await expect.poll(announced, { timeout: 5_000 }).toBe('Systems programming is already first.')
    expect(await channelsOf('learn', 'programming')).toEqual(['systems', 'web', 'languages'])
  })

  it('deactivates a channel inline: it leaves the catalog and is shown as inactive', async () => {
    expect(await channelsOf('discover', 'science')).toContain('space')
    await page.getByRole('button', { name: 'Deactivate Space & astronomy' }).click()
    await expect.poll(() => channelsOf('discover', 'science'), { timeout: 15_000 }).toEqual(['physics', 'maths'])
    await expect.poll(() => row('channel', 'space').innerText(), { timeout: 5_000 }).toContain('inactive')
    await expect.poll(announced, { timeout: 5_000 }).toBe('Space & astronomy deactivated.')
    await page.getByRole('button', { name: 'Activate Space & astronomy' }).click()
    await expect.poll(() => channelsOf('discover', 'science'), { timeout: 15_000 }).toEqual(['physics', 'maths', 'space'])
  })

  it('creates a channel from its group: label in, slug derived, added last', async () => {
    await page.getByRole('button', { name: 'Add a channel to Design' }).click()
    const form = page.getByRole('form', { name: 'New channel in Design' })
    await form.locator('input[name="taxonomy-new-label"]').fill('Motion & Animation')
    expect(await form.locator('input[name="taxonomy-new-slug"]').getAttribute('placeholder')).toBe('motion-animation')
    await form.getByRole('button', { name: 'Create channel' }).click()
    await expect.poll(() => channelsOf('discover', 'design'), { timeout: 15_000 }).toEqual(['visual', 'ux', 'type', 'motion-animation'])
    await row('channel', 'motion-animation').waitFor({ timeout: 5_000 })
    await expect.poll(announced, { timeout: 5_000 }).toBe('Created channel Motion & Animation in Design.')
    await screenshot(page, 'taxonomy-edit')
  })
})
