import { describe, expect, it } from 'vitest'

import { expectReady, markReady } from '../src/startup/readiness'
import { testApp } from './support/app'

describe('GET /api/v1/health and /ready', () => {
  it('reports health once the database answers', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/health')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ status: 'ok' })
  })

  it('is ready after start-up work, and 503 service.unavailable while some is pending', async () => {
    const app = await testApp()
    expect((await app.request('GET', '/v1/ready')).status).toBe(200)
    expectReady('something-slow')
    const waiting = await app.request('GET', '/v1/ready')
    expect(waiting.status).toBe(503)
    expect(waiting.body.error).toEqual({
      code: 'service.unavailable',
      message: expect.any(String),
      details: { database: true, waiting: ['something-slow'] },
    })
    expect(waiting.headers.get('retry-after')).toBe('5')
    markReady('something-slow')
    expect((await app.request('GET', '/v1/ready')).status).toBe(200)
  })
})
