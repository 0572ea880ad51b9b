import { describe, expect, it } from 'vitest'

// Read at the first testApp() call: short lifetimes for this file only.
process.env.JWT_ACCESS_TTL_SECONDS = '1'
process.env.JWT_REFRESH_TTL_SECONDS = '2'

import { testApp } from '../support/app'
import { ADMIN, decodeJwt, login, refresh } from './helpers'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('token expiry (JWT_ACCESS_TTL_SECONDS=1, JWT_REFRESH_TTL_SECONDS=2)', () => {
  it('an expired access token is 401 auth.invalid_token; a refresh yields a working one', async () => {
    const app = await testApp()
    const session = await login(app, ADMIN.email, ADMIN.password)
    const claims = decodeJwt(session.accessToken).payload
    expect(claims.exp - claims.iat).toBe(1)
    expect((await app.request('GET', '/v1/auth/me', { token: session.accessToken })).status).toBe(200)
    await sleep(2100)
    const expired = await app.request('GET', '/v1/auth/me', { token: session.accessToken })
    expect(expired.status).toBe(401)
    expect(expired.body.error.code).toBe('auth.invalid_token')
    // The refresh token (2 s) ran out too by now: log in again and refresh within its lifetime.
    const again = await login(app, ADMIN.email, ADMIN.password)
    const res = await refresh(app, again.refreshToken)
    expect(res.status).toBe(200)
    expect((await app.request('GET', '/v1/auth/me', { token: res.body.data.accessToken })).status).toBe(200)
  })

  it('an expired refresh token is 401 auth.invalid_token and is not treated as reuse', async () => {
    const app = await testApp()
    const session = await login(app, ADMIN.email, ADMIN.password)
    const rows = await app.payload.find({
      collection: 'refresh-tokens',
      where: { userId: { equals: session.user.id } },
      sort: '-createdAt',
      limit: 1,
      overrideAccess: true,
    })
    const row = rows.docs[0] as any
    const ttl = new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime()
    expect(Math.round(ttl / 1000)).toBe(2)
    await sleep(2300)
    const reusedBefore = app.logs.filter((l) => l.msg === 'auth.refresh.reused').length
    const res = await refresh(app, session.refreshToken)
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('auth.invalid_token')
    expect(app.logs.filter((l) => l.msg === 'auth.refresh.reused').length).toBe(reusedBefore)
  })
})
