/**
 * The typed client (client/) against the real server over HTTP: envelope unwrapped, typed
 * errors, the worker's token flow (single-flight refresh, retry once, definitive failure
 * ends the session, transient failures keep the tokens) and ETag revalidation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Read at the first testApp() call: access tokens expire after 2 seconds in this file.
process.env.JWT_ACCESS_TTL_SECONDS = '2'

import { ApiError, chromeStorageTokenStore, memoryTokenStore, type StorageAreaLike } from '../../client/src'
import { ADMIN } from '../auth/helpers'
import { testApp } from '../support/app'
import { startHttpServer, type RunningServer } from '../support/httpServer'
import { passTime } from '../support/clock'
import { clientFor, completedLines } from './support'

const REFRESH_ROUTE = 'POST /api/v1/auth/refresh'

let server: RunningServer
beforeAll(async () => {
  await testApp()
  server = await startHttpServer()
})
afterAll(() => server.close())

describe('the typed client', () => {
  it('unwraps the envelope to { data, pagination } and throws ApiError with code, status, details and requestId', async () => {
    const { client, store } = clientFor(server)
    const user = await client.login(ADMIN.email, ADMIN.password)
    expect(user.email).toBe(ADMIN.email)
    expect(await store.get()).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) })

    const me = await client.get('/auth/me')
    expect(me.data.user.email).toBe(ADMIN.email)
    expect(me.data.permissions).toContain('content.approve')
    expect(me.pagination).toBeUndefined()

    const list = await client.get('/content', { query: { limit: 2, sort: 'newest' } })
    expect(Array.isArray(list.data)).toBe(true)
    expect(list.pagination).toMatchObject({ offset: 0, limit: 2, total: expect.any(Number) })

    const missing = await client.get('/content/{slug}', { params: { slug: 'no-such-item' }, headers: { 'X-Request-Id': 'client-test-1' } }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(ApiError)
    expect(missing).toMatchObject({ status: 404, code: 'content.not_found', requestId: 'client-test-1' })

    const invalid = await client.get('/content', { query: { limit: 999 } }).catch((e: unknown) => e)
    expect(invalid).toMatchObject({ status: 400, code: 'pagination.invalid', details: [expect.objectContaining({ field: 'limit' })] })
  })

  it('five concurrent calls after the access token expired: exactly one refresh, all five succeed', async () => {
    const { client, store, ended } = clientFor(server)
    await client.login(ADMIN.email, ADMIN.password)
    const before = await store.get()
    passTime(3100)
    const refreshesBefore = (await completedLines(REFRESH_ROUTE)).length
    const meBefore = (await completedLines('GET /api/v1/auth/me')).length

    const results = await Promise.all(Array.from({ length: 5 }, () => client.get('/auth/me')))

    for (const r of results) expect(r.data.user.email).toBe(ADMIN.email)
    const refreshes = (await completedLines(REFRESH_ROUTE)).slice(refreshesBefore)
    expect(refreshes.map((l) => l.statusCode)).toEqual([200])
    // Five 401s, then five retries that succeed.
    const me = (await completedLines('GET /api/v1/auth/me')).slice(meBefore).map((l) => l.statusCode)
    expect(me.filter((s) => s === 401)).toHaveLength(5)
    expect(me.filter((s) => s === 200)).toHaveLength(5)
    const after = await store.get()
    expect(after!.refreshToken).not.toBe(before!.refreshToken)
    expect(after!.accessToken).not.toBe(before!.accessToken)
    expect(ended).toEqual([])
  })

  it('a refused refresh (401) clears the store and signals the UI once; the call fails with the 401', async () => {
    const { client, store, ended } = clientFor(server)
    await client.login(ADMIN.email, ADMIN.password)
    const session = (await store.get())!
    // The refresh token was revoked elsewhere (logout), and the access token has expired.
    await (await testApp()).request('POST', '/v1/auth/logout', { token: session.accessToken, body: { refreshToken: session.refreshToken } })
    passTime(3100)

    const results = await Promise.allSettled([client.get('/auth/me'), client.get('/auth/me')])

    for (const r of results) {
      expect(r.status).toBe('rejected')
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 401, code: 'auth.invalid_token' })
    }
    expect(await store.get()).toBeNull()
    expect(ended).toHaveLength(1)
  })

  it('a failing server (5xx) or network keeps the tokens and does not end the session', async () => {
    for (const failure of ['503', 'network'] as const) {
      // The real server, behind a proxy that fails the refresh call.
      const flaky: typeof fetch = async (input, init) => {
        if (String(input).endsWith('/auth/refresh')) {
          if (failure === 'network') throw new TypeError('fetch failed')
          return new Response('{"success":false,"error":{"code":"service.unavailable","message":"down"},"meta":{"requestId":"x"}}', {
            status: 503,
            headers: { 'Retry-After': '5', 'Content-Type': 'application/json' },
          })
        }
        return fetch(input, init)
      }
      const { client, store, ended } = clientFor(server, { fetch: flaky })
      await client.login(ADMIN.email, ADMIN.password)
      const session = await store.get()
      passTime(3100)
      const err = await client.get('/auth/me').catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ApiError)
      if (failure === 'network') expect(err).toMatchObject({ status: 0, code: 'network.error' })
      else expect(err).toMatchObject({ status: 503, code: 'service.unavailable', retryAfterSeconds: 5 })
      expect(await store.get()).toEqual(session)
      expect(ended).toEqual([])
    }
  })

  it('revalidates /catalog and /meta with If-None-Match: 304 from the server, the cached data returned', async () => {
    const statuses: number[] = []
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init)
      statuses.push(res.status)
      return res
    }
    const { client } = clientFor(server, { fetch: recording })
    for (const path of ['/catalog', '/meta'] as const) {
      statuses.length = 0
      const first = await client.get(path)
      const second = await client.get(path)
      expect(statuses).toEqual([200, 304])
      expect(second.data).toEqual(first.data)
    }
    const catalog = await client.get('/catalog')
    expect(catalog.data.etag).toMatch(/^W\//)
  })
})

describe('token stores', () => {
  it('chrome.storage.local adapter: set, get fresh, clear', async () => {
    const items = new Map<string, unknown>()
    const area: StorageAreaLike = {
      get: async (key) => (items.has(key) ? { [key]: structuredClone(items.get(key)) } : {}),
      set: async (entries) => {
        for (const [k, v] of Object.entries(entries)) items.set(k, structuredClone(v))
      },
      remove: async (key) => {
        items.delete(key)
      },
    }
    const store = chromeStorageTokenStore(area)
    expect(await store.get()).toBeNull()
    await store.set({ accessToken: 'a', refreshToken: 'r' })
    expect(items.get('curation.tokens')).toEqual({ accessToken: 'a', refreshToken: 'r' })
    // Another context wrote new tokens: the next read sees them.
    items.set('curation.tokens', { accessToken: 'a2', refreshToken: 'r2' })
    expect(await store.get()).toEqual({ accessToken: 'a2', refreshToken: 'r2' })
    await store.clear()
    expect(await store.get()).toBeNull()
    expect(await memoryTokenStore({ accessToken: 'x', refreshToken: 'y' }).get()).toEqual({ accessToken: 'x', refreshToken: 'y' })
  })
})
