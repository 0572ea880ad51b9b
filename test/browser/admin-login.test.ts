import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

describe('admin panel in Chromium', () => {
  let server: RunningServer
  let browser: Browser

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  it('listened warm: the routes whose code Next loads on a first request were asked once before it listened (server/warmRoutes)', () => {
    const lines = server.logs.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg?: string; path?: string; status?: number })
    const warmed = lines.filter((l) => l.msg === 'server.route_warmed')
    expect(warmed.map((l) => [l.path, l.status])).toEqual([
      ['/api/users/me', 200],
      ['/admin/login', 200],
    ])
    expect(lines.findIndex((l) => l.msg === 'server.route_warmed')).toBeLessThan(lines.findIndex((l) => l.msg === 'server.listening'))
  })

  it('renders the login page', async () => {
    const page = await browser.newPage()
    const res = await page.goto(`${server.baseUrl}/admin`)
    expect(res?.status()).toBe(200)
    await page.waitForURL(/\/admin\/login/)
    await expect.poll(() => page.locator('#field-email').isVisible()).toBe(true)
    expect(await page.locator('#field-password').isVisible()).toBe(true)
    expect(existsSync(await screenshot(page, 'admin-login'))).toBe(true)
    await page.close()
  })

  it('lets the bootstrap admin sign in and reach the dashboard', async () => {
    const page = await browser.newPage()
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/')
    await expect.poll(() => page.locator('.dashboard').count(), { timeout: 20_000 }).toBeGreaterThan(0)
    const text = await page.locator('body').innerText()
    expect(text).toContain('Users')
    expect(text).toContain('Roles')
    expect(existsSync(await screenshot(page, 'admin-dashboard'))).toBe(true)
    await page.close()
  })

  it('refuses a wrong password and stays on the login page', async () => {
    const page = await browser.newPage()
    await signIn(page, server.baseUrl, ADMIN.email, 'not-the-password-1')
    await expect.poll(() => page.locator('.Toastify, [class*="toast"]').count(), { timeout: 15_000 }).toBeGreaterThan(0)
    expect(new URL(page.url()).pathname).toBe('/admin/login')
    await page.close()
  })
})
