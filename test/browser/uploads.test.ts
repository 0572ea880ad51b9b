/**
 * Uploaded files never run script, in Chromium, against the production server. The hostile
 * SVG of the security review (its XML declaration says ISO-2022-JP; `ESC $ B <!-- ESC ( B`
 * hides a <script> from a UTF-8 reader) is refused at upload (400 naming `file`). Then, as if
 * a check had missed it, the same bytes are put in place of an accepted file's on disk and
 * opened as the console's admin would open a file: the file's own policy (script-src none,
 * sandbox) keeps its script from running. A control serves the same bytes without that policy
 * and the script runs: the file is live, and the policy is what stops it.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { closeBrowser, launchBrowser, signIn } from './support/browser'
import { ADMIN, type RunningServer, startServer } from './support/server'


/** The SVG of the review: a UTF-8 reader sees a comment where ISO-2022-JP's reader sees a script. */
function hostileSvg(marker: string): Buffer {
  return Buffer.concat([
    Buffer.from('<?xml version="1.0" encoding="ISO-2022-JP"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'),
    Buffer.from([0x1b, 0x24, 0x42]),
    Buffer.from('<!--'),
    Buffer.from([0x1b, 0x28, 0x42]),
    Buffer.from(`<script>fetch('/pwned/${marker}');document.title='pwned'</script>-->`),
    Buffer.from('<rect width="10" height="10" fill="red"/></svg>'),
  ])
}

const BENIGN_SVG = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="blue"/></svg>')

describe('uploaded files never run script', () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let cookie: string
  const requested: string[] = []

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    page = await browser.newPage()
    page.on('request', (r) => requested.push(new URL(r.url()).pathname))
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password)
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 50_000 })
    cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
  }, 180_000)
  afterAll(async () => {
    await closeBrowser(browser)
    await server?.stop()
  })

  async function upload(name: string, bytes: Buffer) {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/svg+xml' }), name)
    form.append('_payload', JSON.stringify({ alt: 'test' }))
    const res = await fetch(`${server.baseUrl}/api/media`, { method: 'POST', headers: { cookie, origin: server.baseUrl }, body: form })
    return { status: res.status, body: (await res.json()) as any }
  }

  it('the hostile SVG is refused at upload: 400 naming the file field, nothing stored', async () => {
    const name = `hostile-${randomBytes(4).toString('hex')}.svg`
    const answer = await upload(name, hostileSvg('upload'))
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual([{ message: 'The following field is invalid: file (An SVG or XML file must be UTF-8: it holds ESC bytes (an ISO-2022 shift).)' }])
    expect(existsSync(path.join(server.mediaDir, name))).toBe(false)
  })

  it('a file a check missed still runs no script when opened: its own policy holds (and without it, the script runs)', async () => {
    const name = `missed-${randomBytes(4).toString('hex')}.svg`
    const accepted = await upload(name, BENIGN_SVG)
    expect(accepted.status).toBe(201)
    const stored = path.join(server.mediaDir, accepted.body.doc.filename)
    // What a missed check would have stored.
    writeFileSync(stored, hostileSvg('served'))

    const res = await page.goto(`${server.baseUrl}/api/media/file/${accepted.body.doc.filename}`)
    expect(res?.status()).toBe(200)
    expect(res?.headers()['content-type']).toBe('image/svg+xml')
    const policy = res?.headers()['content-security-policy'] ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain('sandbox')
    expect(policy).not.toContain('script-src')
    await page.waitForTimeout(1_000)
    expect(requested.filter((p) => p.startsWith('/pwned/'))).toEqual([])
    expect(await page.title()).not.toBe('pwned')

    // The control: the same bytes on this origin without the file's policy run their script.
    await page.route(`${server.baseUrl}/control.svg`, (route) =>
      route.fulfill({ status: 200, contentType: 'image/svg+xml', body: hostileSvg('control') }),
    )
    await page.route(`${server.baseUrl}/pwned/**`, (route) => route.fulfill({ status: 204 }))
    await page.goto(`${server.baseUrl}/control.svg`)
    await expect.poll(() => requested.filter((p) => p === '/pwned/control').length, { timeout: 10_000 }).toBe(1)
  })

  it('every path to a stored file gets the file’s policy: encoded, doubled-slash, dot-segment and case variants (issue 52.3)', async () => {
    const config = await (await import('../../payload.config')).default
    const uploadCollections = config.collections.filter((c) => c.upload).map((c) => c.slug)
    expect(uploadCollections).toContain('media')
    const accepted = await upload(`variants-${randomBytes(4).toString('hex')}.svg`, BENIGN_SVG)
    expect(accepted.status).toBe(201)
    const file = accepted.body.doc.filename as string
    const encode = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')
    /** Raw request targets: Node's client sends the path as written (fetch would normalise it). */
    const get = (target: string) =>
      new Promise<{ status: number; type?: string; policy?: string }>((resolve, reject) => {
        const req = httpRequest(`${server.baseUrl}/`, { path: target, headers: { cookie } }, (res) => {
          res.resume()
          res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], policy: String(res.headers['content-security-policy'] ?? '') }))
        })
        req.on('error', reject)
        req.end()
      })
    const served: string[] = []
    for (const collection of uploadCollections) {
      const variants = [
        `/api/${collection}/file/${file}`,
        `/api/${collection}/%66ile/${file}`,
        `/api/${collection}/fil%65/${file}`,
        `/api/${collection}/${encode('file')}/${file}`,
        `/api/${encode(collection)}/${encode('file')}/${file}`,
        `/api/${collection}/file/${encode(file)}`,
        `/api//${collection}/file/${file}`,
        `/api/${collection}//file/${file}`,
        `//api/${collection}/file/${file}`,
        `/api/${collection}/./file/${file}`,
        `/api/x/../${collection}/file/${file}`,
        `/api/${collection}/%2e/file/${file}`,
        `/api/${collection.toUpperCase()}/file/${file}`,
        `/api/${collection}/FILE/${file}`,
        `/api/${collection}/file/${file}?download=1`,
      ]
      for (const target of variants) {
        const answer = await get(target)
        if (answer.status !== 200) continue
        served.push(target)
        // Whatever serves the file's bytes serves them under the file's policy.
        expect(answer.policy, target).toContain("default-src 'none'")
        expect(answer.policy, target).toContain('sandbox')
        expect(answer.policy, target).not.toContain('script-src')
      }
    }
    // The variants reach the file (the probe's four did): the test is not vacuous.
    expect(served).toEqual(expect.arrayContaining([`/api/media/file/${file}`, `/api/media/%66ile/${file}`, `/api/%6d%65%64%69%61/%66%69%6c%65/${file}`]))
  })
})

