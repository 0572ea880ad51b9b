import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { api } from './support/api'
import { closeBrowser, launchBrowser, screenshot, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

describe('admin panel admission follows permissions (Chromium)', () => {
  let server: RunningServer
  let browser: Browser
  let adminToken: string

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    const login = await api(server, 'POST', '/auth/login', ADMIN)
    expect(login.status).toBe(200)
    adminToken = login.body.data.accessToken
  })
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  it('signs a moderator created through POST /users into the console with the same password', async () => {
    const created = await api(
      server,
      'POST',
      '/users',
      { email: 'mod@example.com', username: 'moddy', password: 'moderator-pass-1', roles: ['moderator'] },
      adminToken,
    )
    expect(created.status).toBe(201)
    expect(created.body.data).not.toHaveProperty('passwordHash')
    const page = await browser.newPage()
    await signIn(page, server.baseUrl, 'mod@example.com', 'moderator-pass-1')
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/')
    await expect.poll(() => page.locator('.dashboard').count(), { timeout: 20_000 }).toBeGreaterThan(0)
    const nav = await page.locator('body').innerText()
    expect(nav).toContain('Content')
    expect(nav).not.toContain('Roles') // a moderator holds no role.manage
    await screenshot(page, 'admin-moderator-dashboard')
    await page.close()
  })

  it('refuses a member: no dashboard, no session', async () => {
    const created = await api(
      server,
      'POST',
      '/users',
      { email: 'member@example.com', username: 'memb', password: 'member-password-1', roles: ['member'] },
      adminToken,
    )
    expect(created.status).toBe(201)
    const page = await browser.newPage()
    // The sign-in's answer, whatever it is, before the next page.
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users/login', { timeout: 30_000 })
    await signIn(page, server.baseUrl, 'member@example.com', 'member-password-1')
    await answered
    await page.goto(`${server.baseUrl}/admin`)
    await page.waitForLoadState('networkidle')
    expect(await page.locator('.dashboard').count()).toBe(0)
    expect(new URL(page.url()).pathname).not.toBe('/admin')
    await screenshot(page, 'admin-member-refused')
    // Payload's REST offers no way around the API's rules either.
    const cookies = await page.context().cookies()
    const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join('; ')
    const users = await fetch(`${server.baseUrl}/api/users`, { headers: { cookie: cookieHeader } })
    expect(users.status).toBeGreaterThanOrEqual(401)
    await page.close()
  })
})
