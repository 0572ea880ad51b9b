import { describe, expect, it } from 'vitest'

import { testApp } from './support/app'

const EXTENSION = 'chrome-extension://abcdefghijklmnop'

describe('CORS on /api/v1', () => {
  it('echoes an allowed origin, exposes the headers the extension reads, and never allows credentials', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/meta', { headers: { Origin: EXTENSION } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(EXTENSION)
    expect(res.headers.get('access-control-expose-headers')).toBe('X-Request-Id, ETag, Retry-After')
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
})
