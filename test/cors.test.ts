import { describe, expect, it } from 'vitest'

import { routes } from '../endpoints'
import { testApp } from './support/app'

const EXTENSION = 'chrome-extension://abcdefghijklmnop'

describe('CORS on /api/v1', () => {
  it('echoes an allowed origin, exposes the headers the extension reads, and never allows credentials', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/meta', { headers: { Origin: EXTENSION } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(EXTENSION)
    const exposed = res.headers.get('access-control-expose-headers')!.split(', ')
    expect(exposed.sort()).toEqual(['Allow', 'ETag', 'Retry-After', 'X-Request-Id', 'X-Total-Estimated'])
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    expect(res.headers.get('vary')).toContain('Origin')
  })

  it('gives a refused origin no CORS grant', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/meta', { headers: { Origin: 'https://evil.example' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('applies CORS to error answers too', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/missing', { headers: { Origin: EXTENSION } })
    expect(res.status).toBe(404)
    expect(res.headers.get('access-control-allow-origin')).toBe(EXTENSION)
  })

  it('answers a preflight from an allowed origin with the methods and headers', async () => {
    const app = await testApp()
    const res = await app.request('OPTIONS', '/v1/content/submit', {
      headers: {
        Origin: EXTENSION,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, x-request-id',
      },
    })
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(res.headers.get('access-control-allow-origin')).toBe(EXTENSION)
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    const allowed = res.headers.get('access-control-allow-headers')!.split(', ')
    expect(allowed).toEqual(expect.arrayContaining(['Authorization', 'Content-Type', 'X-Request-Id']))
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('grants nothing to a preflight from a refused origin', async () => {
    const app = await testApp()
    const res = await app.request('OPTIONS', '/v1/meta', {
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-methods')).toBeNull()
  })

  it('exposes Allow on a 405, so the extension can read which methods a path takes', async () => {
    const app = await testApp()
    const res = await app.request('DELETE', '/v1/catalog', { headers: { Origin: EXTENSION } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD')
    expect(res.headers.get('access-control-expose-headers')!.split(', ')).toEqual(expect.arrayContaining(['Allow', 'X-Total-Estimated']))
  })

  it('allows exactly the methods the routes use, HEAD beside GET, plus OPTIONS (no PUT)', async () => {
    const app = await testApp()
    const res = await app.request('OPTIONS', '/v1/content', {
      headers: { Origin: EXTENSION, 'Access-Control-Request-Method': 'GET' },
    })
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PATCH, DELETE, OPTIONS')
    const used = new Set(routes.map((r) => r.method.toUpperCase()))
    expect([...used].sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST'])
  })

  it('writes one request.completed line per preflight, allowed origin or not', async () => {
    const app = await testApp()
    const before = app.logs.length
    await app.request('OPTIONS', '/v1/content/submit', {
      headers: { Origin: EXTENSION, 'Access-Control-Request-Method': 'POST', 'X-Request-Id': 'preflight-1' },
    })
    await app.request('OPTIONS', '/v1/meta', { headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' } })
    const lines = app.logs.slice(before).filter((l) => l.msg === 'request.completed')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatchObject({ level: 'info', statusCode: 204, route: 'OPTIONS /api/v1/*', requestId: 'preflight-1' })
    expect(lines[0]!.durationMs).toEqual(expect.any(Number))
    expect(lines[1]).toMatchObject({ level: 'info', statusCode: 204, route: 'OPTIONS /api/v1/*' })
  })

  it('echoes the request id on a preflight answer', async () => {
    const app = await testApp()
    const res = await app.request('OPTIONS', '/v1/meta', {
      headers: { Origin: EXTENSION, 'Access-Control-Request-Method': 'GET', 'X-Request-Id': 'preflight-2' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('x-request-id')).toBe('preflight-2')
  })
})
