import { describe, expect, it } from 'vitest'

// Read at the first testApp() call: short lifetimes for this file only.
process.env.JWT_ACCESS_TTL_SECONDS = '2'
process.env.JWT_REFRESH_TTL_SECONDS = '3'

import { testApp } from '../support/app'
import { passTime } from '../support/clock'
import { ADMIN, decodeJwt, login, refresh } from './helpers'


describe('token expiry (JWT_ACCESS_TTL_SECONDS=2, JWT_REFRESH_TTL_SECONDS=3)', () => {
  it('an expired access token is 401 auth.invalid_token; a refreshed one works until it expires too', async () => {
    const app = await testApp()
    const session = await login(app, ADMIN.email, ADMIN.password)
    const claims = decodeJwt(session.accessToken).payload
    expect(claims.exp - claims.iat).toBe(2)
    // Refreshing involves no password hashing: fast enough to stay inside the lifetimes.
    const res = await refresh(app, session.refreshToken)
    expect(res.status).toBe(200)
    expect((await app.request('GET', '/v1/auth/me', { token: res.body.data.accessToken })).status).toBe(200)
    passTime(3100)
    for (const token of [session.accessToken, res.body.data.accessToken]) {
      const expired = await app.request('GET', '/v1/auth/me', { token })
      expect(expired.status).toBe(401)
      expect(expired.body.error.code).toBe('auth.invalid_token')
    }
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
    const row = rows.docs[0]!
    const ttl = new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime()
    expect(Math.round(ttl / 1000)).toBe(3)
    passTime(3300)
    const reusedBefore = app.logs.filter((l) => l.msg === 'auth.refresh.reused').length
    const res = await refresh(app, session.refreshToken)
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('auth.invalid_token')
    expect(app.logs.filter((l) => l.msg === 'auth.refresh.reused').length).toBe(reusedBefore)
  })
})
