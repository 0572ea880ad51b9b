/**
 * What a browser needs on every answer, through the production Node server (the one server.ts
 * builds): nosniff, a Referrer-Policy, a Content-Security-Policy that forbids framing, plugins
 * and base changes, X-Frame-Options, and Strict-Transport-Security only over HTTPS (directly or
 * behind a trusted proxy); Node-level error answers too. And HEAD on every GET route: the GET
 * answer's status and headers without a body, walked from the route table so a new GET route
 * is covered without editing this file.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The test client is the loopback peer: trusted as a proxy, so its X-Forwarded-Proto counts.
process.env.TRUST_PROXY = '127.0.0.1'

import { routes } from '../../endpoints'
import { startHttpServer, type RunningServer } from '../support/httpServer'

let server: RunningServer

beforeAll(async () => {
  server = await startHttpServer()
})
afterAll(() => server?.close())

const get = (path: string, init: RequestInit = {}) => fetch(`${server.origin}${path}`, { redirect: 'manual', ...init })

function expectBrowserHeaders(res: Response, what: string) {
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin')
  expect(res.headers.get('x-frame-options'), what).toBe('DENY')
  const csp = res.headers.get('content-security-policy') ?? ''
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "default-src 'self'"]) {
    expect(csp.split('; '), `${what}: ${directive}`).toContain(directive)
  }
  expect(csp, what).not.toContain('unsafe-eval')
}

describe('security headers on every answer', () => {
  it('API answers: success, error, 404, 405, 304 and the preflight', async () => {
    const meta = await get('/api/v1/meta')
    expect(meta.status).toBe(200)
    expectBrowserHeaders(meta, 'GET /meta')
    expectBrowserHeaders(await get('/api/v1/content?limit=abc'), '400')
    expectBrowserHeaders(await get('/api/v1/nope'), '404')
    expectBrowserHeaders(await get('/api/v1/meta', { method: 'DELETE' }), '405')
    const catalog = await get('/api/v1/catalog')
    const notModified = await get('/api/v1/catalog', { headers: { 'If-None-Match': catalog.headers.get('etag')! } })
    expect(notModified.status).toBe(304)
    expectBrowserHeaders(notModified, '304')
    const preflight = await get('/api/v1/content', { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' } })
    expect(preflight.status).toBe(204)
    expectBrowserHeaders(preflight, 'preflight')
  })

  it('the reference (/openapi.json, /docs and its assets) and the pages behind (Next)', async () => {
    for (const path of ['/openapi.json', '/docs', '/docs/assets/init.js', '/admin', '/anything']) {
      expectBrowserHeaders(await get(path), path)
    }
  })

  it('an answer Node writes itself (a request it cannot parse)', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.origin).port), '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'))
      let text = ''
      socket.on('data', (d) => (text += d))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(raw).toMatch(/^HTTP\/1\.1 400 /)
    expect(raw).toContain('\r\nX-Content-Type-Options: nosniff\r\n')
    expect(raw).toContain('\r\nReferrer-Policy: strict-origin-when-cross-origin\r\n')
    expect(raw).toMatch(/\r\nContent-Security-Policy: [^\r]*frame-ancestors 'none'/)
  })

  it('Strict-Transport-Security only when the request came over HTTPS through a trusted proxy', async () => {
    expect((await get('/api/v1/meta')).headers.get('strict-transport-security')).toBeNull()
    const viaProxy = await get('/api/v1/meta', { headers: { 'X-Forwarded-Proto': 'https' } })
    expect(viaProxy.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
    const plain = await get('/admin', { headers: { 'X-Forwarded-Proto': 'http' } })
    expect(plain.headers.get('strict-transport-security')).toBeNull()
  })

  it('a client that is not a trusted proxy cannot claim HTTPS', async () => {
    const { applySecurityHeaders } = await import('../../src/edge/securityHeadersNode')
    const set = new Map<string, string>()
    const res = { setHeader: (name: string, value: string) => set.set(name, value) }
    // The right-most X-Forwarded-For entry is the peer (the server appends it): here not 127.0.0.1.
    const req = { headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.9', 'x-forwarded-proto': 'https' }, socket: {} }
    applySecurityHeaders(req as never, res as never)
    expect(set.get('X-Content-Type-Options')).toBe('nosniff')
    expect(set.has('Strict-Transport-Security')).toBe(false)
    applySecurityHeaders({ headers: { 'x-forwarded-for': '203.0.113.9' }, socket: { encrypted: true } } as never, res as never)
    expect(set.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains')
  })

  it("next.config's headers() (next dev / next start) come from the same definition", async () => {
    const { securityHeaders } = await import('../../src/edge/securityHeaders.js')
    const configFor = (await import('../../next.config.mjs')).default as (phase: string) => { headers(): Promise<{ source: string; headers: { key: string; value: string }[] }[]> }
    const all = await configFor('phase-production-server').headers()
    const expected = securityHeaders({ dev: process.env.NODE_ENV !== 'production' })
    // Every path: the list without the policy; pages (not /api/): the site's policy, which under
    // /api/ each answer's handler sets itself (an uploaded file's own, whatever path reached it).
    const everywhere = Object.fromEntries(all.find((h) => h.source === '/:path*')!.headers.map((h) => [h.key, h.value]))
    const pages = Object.fromEntries(all.find((h) => h.source === '/((?!api/).*)')!.headers.map((h) => [h.key, h.value]))
    expect({ ...everywhere, ...pages }).toEqual(expected)
    expect(everywhere['Content-Security-Policy']).toBeUndefined()
  })
})

/** Every GET route of the table, with its path parameters filled. */
const getRoutes = routes.filter((r) => r.method.toUpperCase() === 'GET').map((r) => `/api/v1${r.path.replace(/:[a-zA-Z]+/g, 'x')}`)

describe('HEAD on every GET route', () => {
  it('the route table has GET routes to walk', () => {
    expect(getRoutes).toEqual(expect.arrayContaining(['/api/v1/meta', '/api/v1/catalog', '/api/v1/content', '/api/v1/content/x', '/api/v1/tags', '/api/v1/health', '/api/v1/ready']))
  })

  it.each(getRoutes)('HEAD %s answers like GET, without a body', async (path) => {
    const [g, h] = [await get(path), await get(path, { method: 'HEAD' })]
    const body = await g.text()
    expect(h.status).toBe(g.status)
    expect(await h.text()).toBe('')
    for (const name of ['content-type', 'cache-control', 'etag', 'vary', 'x-content-type-options', 'content-security-policy']) {
      expect(h.headers.get(name), name).toBe(g.headers.get(name))
    }
    // The envelope carries the request's own duration: lengths may differ by a digit or two.
    expect(Math.abs(Number(h.headers.get('content-length')) - Buffer.byteLength(body))).toBeLessThanOrEqual(3)
    expect(Number(h.headers.get('content-length'))).toBeGreaterThan(0)
  })

  it('HEAD revalidates like GET: 304 on a matching If-None-Match', async () => {
    const etag = (await get('/api/v1/catalog')).headers.get('etag')!
    const h = await get('/api/v1/catalog', { method: 'HEAD', headers: { 'If-None-Match': etag } })
    expect(h.status).toBe(304)
    expect(h.headers.get('etag')).toBe(etag)
  })

  it('the reference answers HEAD with the exact length of its GET body', async () => {
    for (const path of ['/openapi.json', '/docs']) {
      const [g, h] = [await get(path), await get(path, { method: 'HEAD' })]
      expect(h.status).toBe(200)
      expect(Number(h.headers.get('content-length'))).toBe(Buffer.byteLength(await g.text()))
      expect(await h.text()).toBe('')
    }
  })

  it('CORS preflights and 405 answers name HEAD where GET is allowed', async () => {
    const preflight = await get('/api/v1/content', { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'HEAD' } })
    expect(preflight.headers.get('access-control-allow-methods')?.split(', ')).toContain('HEAD')
    const wrong = await get('/api/v1/meta', { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, HEAD')
    expect((await wrong.json()).error.details.allowed).toEqual(['GET', 'HEAD'])
  })
})

describe('absolute-form request targets', () => {
  /** One raw request over a socket; the answer's head and body as text. */
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.origin).port), '127.0.0.1', () => socket.write(request))
      let text = ''
      socket.on('data', (d) => {
        text += d
        if (/\r\n\r\n/.test(text) && /content-length: 0\r\n|"success"/i.test(text)) socket.end()
      })
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
      setTimeout(() => socket.end(), 2_000)
    })

  it('are served as their path on this host: the API answers, nothing points at the named host', async () => {
    const answer = await raw(`GET http://other.example/api/v1/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(answer).toContain('"success":true')
    expect(answer.toLowerCase()).not.toContain('other.example')
  })

  it('a target that is neither a path nor an absolute URL is refused with the envelope', async () => {
    const answer = await raw(`GET other.example/api/v1/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toContain('"code":"validation.failed"')
    expect(answer).toContain('"constraint":"http_syntax"')
  })

  it('the origin form reaches the handlers (Next builds its redirects from it)', async () => {
    const { toOriginForm } = await import('../../src/edge/nodeServer')
    const req = { url: 'http://other.example/admin/?a=1', method: 'GET' }
    expect(toOriginForm(req as never)).toBe(true)
    expect(req.url).toBe('/admin/?a=1')
    expect(toOriginForm({ url: '*', method: 'OPTIONS' } as never)).toBe(true)
    expect(toOriginForm({ url: 'javascript:alert(1)', method: 'GET' } as never)).toBe(false)
  })
})
