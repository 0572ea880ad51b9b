/**
 * URL policy (issue 9, finding 10): branding URLs are absolute http(s) or root-relative
 * paths, content URLs absolute http(s) only; relative branding URLs become absolute against
 * the public URL, else the origin the client addressed (not the server's listen address).
 * This file sets no APP_PUBLIC_URL.
 */
delete process.env.APP_PUBLIC_URL
process.env.APP_LOGO_URL = '/logo.png'

import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { dispatchApi } from '../../endpoints'
import { ConfigError, parseConfig } from '../../src/platform/config'
import { serveApi } from '../../src/edge/nodeAdapter'
import { securityHeadersFor } from '../../src/edge/securityHeadersNode'
import { adminSession, freshIp } from '../auth/helpers'
import { type TestApp, testApp } from '../support/app'

const BAD_BRANDING_URLS = [
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  ' javascript:alert(1)',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'vbscript:msgbox(1)',
  '//evil.example/logo.png',
  '/\\evil.example/logo.png',
  'logo.png',
  'ftp://files.example/logo.png',
  'https://exa\nmple.com/logo.png',
  'https:/logo.png',
]

let server: Server
let port: number

/** GET /api/v1/meta over real HTTP through the Node adapter, with the given headers. */
function metaOverHttp(headers: Record<string, string>): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'GET', path: '/api/v1/meta', headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve(JSON.parse(Buffer.concat(parts).toString('utf8'))))
    })
    req.on('error', reject)
    req.end()
  })
}

async function panelCookie(app: TestApp): Promise<string> {
  const res = await app.request('POST', '/users/login', { body: { email: 'admin@example.com', password: 'admin-password-123' }, headers: freshIp() })
  expect(res.status).toBe(200)
  return `payload-token=${/payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`
}

beforeAll(async () => {
  const app = await testApp()
  // The server's own listen address is the last-resort fallback, never preferred to the Host header.
  server = createServer((req, res) => serveApi(dispatchApi, req, res, app.payload, 'http://127.0.0.1:9', securityHeadersFor(req)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('branding URLs', () => {
  it('the console refuses a script, protocol-relative or bare relative URL for the logo, icon and public URL', async () => {
    const app = await testApp()
    const cookie = await panelCookie(app)
    for (const field of ['iconUrl', 'logoUrl', 'publicUrl']) {
      for (const bad of BAD_BRANDING_URLS) {
        const res = await app.request('POST', '/globals/branding', { headers: { cookie }, body: { [field]: bad } })
        expect(res.status, `${field} = ${JSON.stringify(bad)}: ${res.text}`).toBe(400)
      }
    }
    const meta = await app.request('GET', '/v1/meta')
    expect(meta.body.data.iconUrl).not.toMatch(/script|evil|data:/i)
    expect(meta.body.data.logoUrl).not.toMatch(/script|evil|data:/i)
    const stored = await app.payload.findGlobal({ slug: 'branding', overrideAccess: true })
    expect([stored.iconUrl ?? null, stored.logoUrl ?? null, stored.publicUrl ?? null]).toEqual([null, null, null])
  })

  it('the console accepts absolute http(s) URLs and root-relative paths (a public URL must be absolute)', async () => {
    const app = await testApp()
    const cookie = await panelCookie(app)
    const ok = await app.request('POST', '/globals/branding', {
      headers: { cookie },
      body: { iconUrl: 'https://cdn.example.com/icon.png', logoUrl: '/brand/logo.png' },
    })
    expect(ok.status, ok.text).toBe(200)
    const relativePublic = await app.request('POST', '/globals/branding', { headers: { cookie }, body: { publicUrl: '/site' } })
    expect(relativePublic.status).toBe(400)
    await app.payload.updateGlobal({ slug: 'branding', data: { iconUrl: '', logoUrl: '' }, overrideAccess: true })
  })

  it('the environment refuses the same URLs at startup', () => {
    for (const name of ['APP_LOGO_URL', 'APP_ICON_URL', 'APP_PUBLIC_URL']) {
      for (const bad of BAD_BRANDING_URLS) {
        let problems: string[] = []
        try {
          parseConfig({ [name]: bad })
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError)
          problems = (err as ConfigError).problems
        }
        expect(problems.join('\n'), `${name}=${JSON.stringify(bad)}`).toContain(name)
      }
    }
    expect(parseConfig({ APP_LOGO_URL: '/logo.png', APP_ICON_URL: 'https://cdn.example.com/i.png' }).branding.logoUrl).toBe('/logo.png')
    expect(() => parseConfig({ APP_PUBLIC_URL: '/site' })).toThrow(ConfigError)
    expect(parseConfig({ APP_PUBLIC_URL: 'https://app.example.com' }).branding.publicUrl).toBe('https://app.example.com')
  })
})

describe('GET /meta makes relative URLs absolute', () => {
  it('against the origin the client addressed when no public URL is set', async () => {
    const body = await metaOverHttp({ Host: 'api.example.org' })
    expect(body.data.logoUrl).toBe('http://api.example.org/logo.png')
    const withPort = await metaOverHttp({ Host: 'api.example.org:8443' })
    expect(withPort.data.logoUrl).toBe('http://api.example.org:8443/logo.png')
    // X-Forwarded-Proto is a proxy's word: ignored unless TRUST_PROXY is set.
    const forwarded = await metaOverHttp({ Host: 'api.example.org', 'X-Forwarded-Proto': 'https' })
    expect(forwarded.data.logoUrl).toBe('http://api.example.org/logo.png')
  })

  it('against the public URL when one is set', async () => {
    const app = await testApp()
    await app.payload.updateGlobal({ slug: 'branding', data: { publicUrl: 'https://public.example.net/base' }, overrideAccess: true })
    try {
      const body = await metaOverHttp({ Host: 'api.example.org' })
      expect(body.data.logoUrl).toBe('https://public.example.net/logo.png')
      expect(body.data.publicUrl).toBe('https://public.example.net/base')
    } finally {
      await app.payload.updateGlobal({ slug: 'branding', data: { publicUrl: '' }, overrideAccess: true })
    }
  })
})

describe('content URLs', () => {
  it('submit accepts only absolute http(s) URLs', async () => {
    const app = await testApp()
    const token = (await adminSession(app)).accessToken
    const before = (await app.payload.count({ collection: 'content', overrideAccess: true })).totalDocs
    for (const url of ['javascript:alert(1)', '/relative/path', '//evil.example/x', 'ftp://files.example/x', 'https://exa\tmple.com/x', 'https://example.com/a\nb']) {
      const res = await app.request('POST', '/v1/content/submit', { token, body: { title: 'Bad url', url } })
      expect(res.status, `${JSON.stringify(url)}: ${res.text}`).toBe(400)
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: 'url' }))
    }
    expect((await app.payload.count({ collection: 'content', overrideAccess: true })).totalDocs).toBe(before)
    const ok = await app.request('POST', '/v1/content/submit', { token, body: { title: 'Good url', url: 'https://example.com/good' } })
    expect(ok.status, ok.text).toBe(201)
    expect(ok.body.data.url).toBe('https://example.com/good')
  })

  it('the collection refuses the same (console and local API)', async () => {
    const app = await testApp()
    for (const url of ['/relative', 'https://exa\nmple.com/x']) {
      await expect(
        app.payload.create({ collection: 'content', data: { slug: `c-${url.length}`, title: 'x', url, status: 'pending' }, overrideAccess: true }),
      ).rejects.toMatchObject({ name: 'ValidationError' })
    }
  })
})
