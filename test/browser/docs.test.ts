/**
 * The API reference in a real browser, on both entry points (server.ts, and stock
 * `next start` through app/openapi.json and app/docs): Swagger UI renders the document's
 * title and operations, and every request the page makes stays on the server's origin.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { closeBrowser, launchBrowser, screenshot } from './support/browser'
import { startServer, type RunningServer } from './support/server'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await closeBrowser(browser)
})

for (const entry of ['server.ts', 'next'] as const) {
  describe(`/openapi.json and /docs through ${entry}`, () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await startServer({}, entry)
    }, 120_000)
    afterAll(async () => {
      await server?.stop()
    })

    it('/favicon.ico, which browsers ask for on their own, is an icon (never a 404 in a page\'s console), HEAD too', async () => {
      const icon = await fetch(`${server.baseUrl}/favicon.ico`)
      expect(icon.status).toBe(200)
      expect(icon.headers.get('content-type')).toBe('image/x-icon')
      expect(icon.headers.get('x-content-type-options')).toBe('nosniff')
      // An icon directory of one 32×32 image (public/favicon.ico).
      expect([...Buffer.from(await icon.arrayBuffer()).subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0])
      const head = await fetch(`${server.baseUrl}/favicon.ico`, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
    })

    it('serves the document raw with an ETag, 304 on If-None-Match', async () => {
      const res = await fetch(`${server.baseUrl}/openapi.json`)
      expect(res.status).toBe(200)
      const etag = res.headers.get('etag')!
      expect(etag).toMatch(/^W\//)
      const doc = await res.json()
      expect(doc.openapi).toBe('3.1.1')
      expect(doc.paths['/content/{slug}'].get.operationId).toBe('getContentBySlug')
      const again = await fetch(`${server.baseUrl}/openapi.json`, { headers: { 'If-None-Match': etag } })
      expect(again.status).toBe(304)
    })

    it('renders the reference from same-origin assets only', async () => {
      const page = await browser.newPage()
      const origins = new Set<string>()
      page.on('request', (req) => {
        const url = new URL(req.url())
        if (url.protocol.startsWith('http')) origins.add(url.origin)
      })
      const res = await page.goto(`${server.baseUrl}/docs`)
      expect(res?.status()).toBe(200)
      await expect.poll(() => page.locator('.info .title').first().innerText().catch(() => ''), { timeout: 20_000 }).toContain('API')
      await expect.poll(() => page.locator('.opblock').count(), { timeout: 20_000 }).toBeGreaterThan(10)
      expect(await page.locator('body').innerText()).toContain('/content/submit')
      expect([...origins]).toEqual([server.baseUrl])
      await screenshot(page, `docs-${entry === 'next' ? 'next' : 'server'}`)
      await page.close()
    })
  })
}
