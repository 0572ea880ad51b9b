/**
 * The Content-Security-Policy in a real browser: the console's pages and the API reference
 * work under it with no violation (each reported through `securitypolicyviolation` events and
 * Chromium's console), and no page of another origin can frame the console.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { closeBrowser, launchBrowser, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'

declare global {
  interface Window {
    __cspViolations?: string[]
  }
}

describe('the Content-Security-Policy in Chromium', () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  const consoleViolations: string[] = []

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    // Recorded from the first script of every document on.
    await page.addInitScript(() => {
      window.__cspViolations = []
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI}`)
      })
    })
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) consoleViolations.push(msg.text())
    })
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 50_000 })
  })
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  /** Visits a page, waits for what shows it works, and returns the violations it caused. */
  async function visit(path: string, ready: string): Promise<string[]> {
    const res = await page.goto(`${server.baseUrl}${path}`)
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
    await page.locator(ready).first().waitFor({ timeout: 50_000 })
    // Late scripts and styles (hydration, lazy chunks) get their chance to be blocked: until the
    // page has made no request for half a second.
    await page.waitForLoadState('networkidle')
    return [...(await page.evaluate(() => window.__cspViolations ?? [])), ...consoleViolations.splice(0)]
  }

  it.each([
    ['the dashboard', '/admin', '#tile-pending'],
    ['a collection list', '/admin/collections/tags', '.collection-list'],
    ['a create form', '/admin/collections/tags/create', '#field-label'],
    ['the moderation queue', '/admin/moderation', '.moderation-count'],
    ['the taxonomy tree', '/admin/taxonomy', '.taxonomy-tree'],
    ['the audit log', '/admin/audit', 'table.audit-log'],
    ['the branding global', '/admin/globals/branding', 'form'],
    ['the API reference', '/docs', '.swagger-ui .info'],
  ])('%s works with no violation', async (_name, path, ready) => {
    expect(await visit(path, ready)).toEqual([])
  })

  it('a page of another origin cannot frame the console', async () => {
    const framer: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end(`<!doctype html><title>framer</title><iframe id="f" src="${server.baseUrl}/admin/login" width="800" height="600"></iframe>`)
    })
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve))
    // localhost vs 127.0.0.1: another origin.
    const other = `http://localhost:${(framer.address() as AddressInfo).port}`
    const framing = await browser.newPage()
    const refused: string[] = []
    framing.on('console', (msg) => refused.push(msg.text()))
    try {
      await framing.goto(other)
      // Chromium reports the refusal when the frame's answer arrives: wait for that, not a fixed time.
      await expect.poll(() => refused.join('\n'), { timeout: 30_000 }).toMatch(/frame-ancestors|X-Frame-Options|Refused to (display|frame)/)
      const frame = framing.frames().find((f) => f !== framing.mainFrame())
      // The console's login form never renders inside the frame.
      const rendered = frame ? await frame.locator('#field-email').count().catch(() => 0) : 0
      expect(rendered).toBe(0)
    } finally {
      await framing.close()
      await new Promise<void>((resolve) => framer.close(() => resolve()))
    }
  })
})
