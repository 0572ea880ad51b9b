import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'

import { parseWith } from '../src/edge/validation'
import { wrap } from '../src/edge/wrap'
import { resetConfig } from '../src/platform/config'
import { apiRequestFromFetch, toResponse } from '../src/edge/fetchAdapter'
import { ApiError } from '../src/platform/errors'
import { testApp } from './support/app'

/** Calls one wrapped handler with a real Request carrying this file's Payload instance. */
async function callWrapped(
  handler: Parameters<typeof wrap>[0]['handler'],
  init: RequestInit & { url?: string } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const app = await testApp()
  const request = new Request(init.url ?? 'http://localhost:3000/api/v1/test', init)
  const res = toResponse(await wrap({ handler }, 'TEST /api/v1/test')(apiRequestFromFetch(request, app.payload), {}))
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

describe('the /api/v1 envelope', () => {
  afterEach(() => {
    ;(process.env as Record<string, string>).NODE_ENV = 'test'
    resetConfig()
  })

  it('wraps data with success, meta.requestId and meta.durationMs', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/health')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      data: { status: 'ok' },
      meta: { requestId: expect.stringMatching(/^req_[0-9A-HJKMNP-TV-Z]{26}$/), durationMs: expect.any(Number) },
    })
    expect(Number.isInteger(res.body.meta.durationMs)).toBe(true)
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })

  it('echoes a caller X-Request-Id in the header and the body', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/meta', { headers: { 'X-Request-Id': 'ext-7f3a.42' } })
    expect(res.headers.get('x-request-id')).toBe('ext-7f3a.42')
    expect(res.body.meta.requestId).toBe('ext-7f3a.42')
  })

  it('replaces an unusable X-Request-Id with a generated one', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/meta', { headers: { 'X-Request-Id': 'bad id with spaces\u0001' } })
    expect(res.headers.get('x-request-id')).toMatch(/^req_/)
  })

  it('answers unknown routes with an enveloped 404 route.not_found', async () => {
    const app = await testApp()
    for (const path of ['/v1/nothing-here', '/v1/meta/extra', '/v1']) {
      const res = await app.request('GET', path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({
        success: false,
        error: { code: 'route.not_found', message: expect.any(String) },
        meta: { requestId: expect.any(String) },
      })
      expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId)
    }
  })

  it('answers a wrong method with an enveloped 405 and an Allow header', async () => {
    const app = await testApp()
    const res = await app.request('POST', '/v1/meta', { body: {} })
    expect(res.status).toBe(405)
    expect(res.body.error.code).toBe('route.method_not_allowed')
    expect(res.body.error.details).toEqual({ allowed: ['GET', 'HEAD'] })
    expect(res.headers.get('allow')).toBe('GET, HEAD')
  })

  it('answers malformed JSON with 400 validation.failed', async () => {
    const res = await callWrapped(
      async (ctx) => ({ data: await ctx.body() }),
      { method: 'POST', body: '{"title": ', headers: { 'content-type': 'application/json' } },
    )
    expect(res.status).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.error.code).toBe('validation.failed')
    expect(res.body.error.details).toEqual([{ field: '(body)', constraint: 'json' }])
  })

  it('maps zod failures to field details and never echoes a password', async () => {
    const schema = z.object({
      email: z.email(),
      password: z.string().min(12),
      title: z.string().max(5),
      slug: z.string().regex(/^[a-z]+$/),
      count: z.number(),
    })
    const res = await callWrapped(
      async (ctx) => ({ data: parseWith(schema, await ctx.body()) }),
      {
        method: 'POST',
        body: JSON.stringify({ email: 'not-an-email', password: 'hunter2', title: 'far too long', slug: 'Bad Slug' }),
      },
    )
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation.failed')
    expect(res.body.error.details).toEqual([
      { field: 'email', constraint: 'email', value: 'not-an-email' },
      { field: 'password', constraint: 'min' },
      { field: 'title', constraint: 'max', value: 'far too long' },
      { field: 'slug', constraint: 'pattern', value: 'Bad Slug' },
      { field: 'count', constraint: 'required' },
    ])
    expect(JSON.stringify(res.body)).not.toContain('hunter2')
  })

  it('passes typed API errors through with their status, code, details and headers', async () => {
    const res = await callWrapped(async () => {
      throw new ApiError(409, 'slug.conflict', 'Taken.', { slug: 'x', entity: 'content' }, { 'Retry-After': '3' })
    })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'slug.conflict', message: 'Taken.', details: { slug: 'x', entity: 'content' } })
    expect(res.headers.get('retry-after')).toBe('3')
  })

  it("answers a database read stopped at its time limit (Payload's own, wrapped by a library) with 503 and Retry-After, never 500", async () => {
    const expired = Object.assign(new Error('operation exceeded time limit'), { code: 50, codeName: 'MaxTimeMSExpired' })
    const res = await callWrapped(async () => {
      throw new Error('Payload find failed', { cause: expired })
    })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('service.unavailable')
    expect(res.headers.get('retry-after')).toBe('1')
  })

  it('answers a database that cannot be reached for now (no server to select, a primary stepping down, a full pool) with 503 and Retry-After, never 500', async () => {
    const { MongoClient, MongoServerError } = await import('mongodb')
    // A real selection failure: nothing listens on port 9.
    const client = new MongoClient('mongodb://127.0.0.1:9/x?serverSelectionTimeoutMS=200&directConnection=true')
    const selection = await client.db('x').command({ ping: 1 }).then(() => null, (e: unknown) => e)
    await client.close()
    expect((selection as Error).name).toBe('MongoServerSelectionError')
    const steppedDown = new MongoServerError({ code: 10107, codeName: 'NotWritablePrimary', errmsg: 'not primary' })
    // The driver's WaitQueueTimeoutError is not exported: its shape (its name is all that tells it).
    const waitQueueTimeout = Object.assign(new Error('Timed out while checking out a connection from connection pool'), { name: 'MongoWaitQueueTimeoutError' })
    for (const thrown of [selection, new Error('Payload find failed', { cause: steppedDown }), waitQueueTimeout]) {
      const res = await callWrapped(async () => {
        throw thrown
      })
      expect(res.status).toBe(503)
      expect(res.body.error.code).toBe('service.unavailable')
      expect(res.headers.get('retry-after')).toBe('2')
    }
    // Any other server error stays a 500.
    const res = await callWrapped(async () => {
      throw new MongoServerError({ code: 2, codeName: 'BadValue', errmsg: 'bad' })
    })
    expect(res.status).toBe(500)
  })

  it('turns an unexpected exception into 500 internal.error with details outside production', async () => {
    const res = await callWrapped(async () => {
      throw new Error('database exploded')
    })
    expect(res.status).toBe(500)
    expect(res.body.error.code).toBe('internal.error')
    expect(res.body.error.message).toBe('An unexpected error occurred.')
    expect(res.body.error.details).toEqual({ name: 'Error', message: 'database exploded' })
    const app = await testApp()
    const line = app.logs.findLast((l) => l.msg === 'request.failed')
    expect(line?.level).toBe('error')
    expect(line?.err?.stack).toContain('database exploded')
  })

  it('omits internal error details in production', async () => {
    ;(process.env as Record<string, string>).NODE_ENV = 'production'
    resetConfig()
    const res = await callWrapped(async () => {
      throw new Error('secret internals')
    })
    expect(res.status).toBe(500)
    expect(res.body.error).toEqual({ code: 'internal.error', message: 'An unexpected error occurred.' })
    expect(JSON.stringify(res.body)).not.toContain('secret internals')
  })

  it('sets no cookie and marks dynamic answers uncacheable', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/health')
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})
