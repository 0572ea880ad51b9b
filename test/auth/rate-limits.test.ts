import { describe, expect, it } from 'vitest'

// Small limits for this file: 2 requests per window; login's window is short enough to wait out.
process.env.RATE_LIMIT_LOGIN = '2/4'
for (const name of ['REGISTER', 'REFRESH', 'PASSWORD_CHANGE', 'SUBMIT']) process.env[`RATE_LIMIT_${name}`] = '2/60'

import { rateLimit } from '../../src/edge/rateLimitGate'
import type { ApiContext } from '../../src/edge/route'
import { getConfig } from '../../src/platform/config'
import { engine } from '../../src/db/engine'
import { withFields } from '../../src/platform/logging'
import { rateLimitPoints } from '../support/engineProbes'
import { testApp } from '../support/app'
import { ADMIN, createUser, login } from './helpers'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const ip = (n: number) => ({ 'x-forwarded-for': `192.0.2.${n}` })

/** The counter as stored in the database (engine-neutral probe). */
async function storedPoints(app: Awaited<ReturnType<typeof testApp>>, key: string): Promise<number | undefined> {
  return rateLimitPoints(app.payload, getConfig().database, key)
}

describe('rate limits (RATE_LIMIT_LOGIN=2/4, others 2/60)', () => {
  it('login: the third request from one IP is 429 ratelimit.exceeded with Retry-After, then resets', async () => {
    const app = await testApp()
    const body = { email: ADMIN.email, password: 'wrong-password-000' }
    const first = await app.request('POST', '/v1/auth/login', { body, headers: ip(1) })
    const second = await app.request('POST', '/v1/auth/login', { body, headers: ip(1) })
    expect([first.status, second.status]).toEqual([401, 401])
    const third = await app.request('POST', '/v1/auth/login', { body: ADMIN, headers: ip(1) })
    expect(third.status).toBe(429)
    expect(third.body.error.code).toBe('ratelimit.exceeded')
    const retryAfter = Number(third.headers.get('retry-after'))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(4)
    // Another address is unaffected.
    expect((await app.request('POST', '/v1/auth/login', { body: ADMIN, headers: ip(2) })).status).toBe(200)
    // A warn-level line per throttled request.
    const warned = app.logs.filter((l) => l.msg === 'ratelimit.exceeded')
    expect(warned).toHaveLength(1)
    expect(warned[0]!.level).toBe('warn')
    expect(warned[0]!.limit).toBe('login')
    // The window ends: the same address may try again.
    await sleep(retryAfter * 1000 + 100)
    expect((await app.request('POST', '/v1/auth/login', { body: ADMIN, headers: ip(1) })).status).toBe(200)
  })

  it('keeps the counters in the database, shared with any other process', async () => {
    const app = await testApp()
    const body = { email: ADMIN.email, password: 'wrong-password-000' }
    await app.request('POST', '/v1/auth/login', { body, headers: ip(10) })
    expect(await storedPoints(app, 'login:192.0.2.10')).toBe(1)
    // Another process is simulated by writing to the same counter directly, as its limiter would.
    const hit = await engine().hitRateLimit(app.payload, 'login:192.0.2.10', 2, 4)
    expect(hit).toMatchObject({ allowed: true, consumed: 2 })
    const res = await app.request('POST', '/v1/auth/login', { body: ADMIN, headers: ip(10) })
    expect(res.status).toBe(429)
    expect(await storedPoints(app, 'login:192.0.2.10')).toBe(3)
  })

  it('register and refresh are limited per IP', async () => {
    const app = await testApp()
    const reg = (n: number) =>
      app.request('POST', '/v1/auth/register', {
        body: { email: `r${n}@example.com`, username: `reg${n}`, password: 'register-password-1' },
        headers: ip(20),
      })
    expect((await reg(1)).status).toBe(201)
    expect((await reg(2)).status).toBe(201)
    const third = await reg(3)
    expect(third.status).toBe(429)
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(55)
    expect((await app.payload.count({ collection: 'users', where: { username: { equals: 'reg3' } }, overrideAccess: true })).totalDocs).toBe(0)

    const bogus = { refreshToken: 'B'.repeat(43) }
    expect((await app.request('POST', '/v1/auth/refresh', { body: bogus, headers: ip(21) })).status).toBe(401)
    expect((await app.request('POST', '/v1/auth/refresh', { body: bogus, headers: ip(21) })).status).toBe(401)
    const limited = await app.request('POST', '/v1/auth/refresh', { body: bogus, headers: ip(21) })
    expect(limited.status).toBe(429)
    expect(limited.body.error.code).toBe('ratelimit.exceeded')
  })

  it('password change is limited per user, whatever the address', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const session = await login(app, user.email, user.password)
    const attempt = (n: number) =>
      app.request('POST', '/v1/auth/password/change', {
        token: session.accessToken,
        body: { currentPassword: 'not-the-password', newPassword: 'another-password-1' },
        headers: ip(30 + n),
      })
    expect((await attempt(1)).status).toBe(400)
    expect((await attempt(2)).status).toBe(400)
    const third = await attempt(3)
    expect(third.status).toBe(429)
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(55)
    expect(await storedPoints(app, `passwordChange:${user.id}`)).toBe(3)
  })

  it('rateLimit("submit") is a reusable before-gate keyed by user id', async () => {
    const app = await testApp()
    const gate = rateLimit('submit')
    const ctx = (userId: string): ApiContext => ({
      input: undefined,
      req: {
        payload: app.payload,
        method: 'POST',
        path: '/v1/content',
        search: '',
        origin: 'http://localhost',
        headers: new Headers(),
        text: async () => '',
      },
      requestId: 'req-gate',
      params: {},
      query: new URLSearchParams(),
      user: { id: userId, permissions: [] },
      ip: '198.51.100.1',
      userAgent: 'test',
      ifMatch: undefined,
      log: withFields({ test: 'rate-limit-gate' }),
      body: async () => ({}),
    })
    await gate(ctx('aaaaaaaaaaaaaaaaaaaaaaaa'))
    await gate(ctx('aaaaaaaaaaaaaaaaaaaaaaaa'))
    await expect(gate(ctx('aaaaaaaaaaaaaaaaaaaaaaaa'))).rejects.toMatchObject({
      status: 429,
      code: 'ratelimit.exceeded',
      headers: { 'Retry-After': expect.stringMatching(/^[1-6][0-9]?$/) },
    })
    // Another user has their own counter.
    await expect(gate(ctx('bbbbbbbbbbbbbbbbbbbbbbbb'))).resolves.toBeUndefined()
  })
})
