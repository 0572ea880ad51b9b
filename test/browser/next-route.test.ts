/**
 * Without server.ts (next dev, or stock `next start`), /api/v1 is the Next route
 * app/(payload)/api/v1/[[...path]]: the same dispatcher, the same answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startServer, type RunningServer } from './support/server'

let server: RunningServer

beforeAll(async () => {
  server = await startServer({ CORS_ALLOWED_ORIGINS: 'http://localhost:5173' }, 'next')
}, 120_000)

afterAll(async () => {
  await server?.stop()
})

describe('/api/v1 through the Next route', () => {
  it('answers with the envelope, the request id and the caching header', async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/health`, { headers: { 'X-Request-Id': 'next-route-1' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toBe('next-route-1')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.json()).toEqual({ success: true, data: { status: 'ok' }, meta: { requestId: 'next-route-1', durationMs: expect.any(Number) } })
  })

  it('serves reads with pagination, bodies, 404, 405 and preflights like the server does', async () => {
    const list = await fetch(`${server.baseUrl}/api/v1/content?limit=5`)
    expect(list.status).toBe(200)
    expect((await list.json()).pagination).toMatchObject({ offset: 0, limit: 5, total: 0, hasMore: false })
    const slug = await fetch(`${server.baseUrl}/api/v1/slug/suggest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ value: 'Ünïcode -- Title!', entity: 'tag' }),
    })
    expect((await slug.json()).data).toEqual({ slug: 'unicode-title' })
    const missing = await fetch(`${server.baseUrl}/api/v1/nothing`)
    expect(missing.status).toBe(404)
    expect((await missing.json()).error.code).toBe('route.not_found')
    const wrong = await fetch(`${server.baseUrl}/api/v1/catalog`, { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, HEAD')
    const pre = await fetch(`${server.baseUrl}/api/v1/content`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })

  it("leaves Payload's own REST on its route", async () => {
    const res = await fetch(`${server.baseUrl}/api/users/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'admin-password-123' }),
    })
    expect(res.status).toBe(200)
    expect((await res.json()).token).toEqual(expect.any(String))
  })
})
