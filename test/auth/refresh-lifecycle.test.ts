import { describe, expect, it } from 'vitest'

import { claimRefreshToken } from '../../src/db/workflow'
import { testApp } from '../support/app'
import { createUser, decodeJwt, expectNoSecrets, freshIp, login, refresh, tokenRows } from './helpers'

describe('refresh-token lifecycle (spec table)', () => {
  it('active -> POST /auth/refresh -> revoked (rotated); a new refresh and access token are issued', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const first = await login(app, user.email, user.password)
    const res = await refresh(app, first.refreshToken)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.data).sort()).toEqual(['accessToken', 'refreshToken'])
    expect(res.body.data.refreshToken).not.toBe(first.refreshToken)
    expect(decodeJwt(res.body.data.accessToken).payload.sub).toBe(user.id)
    const rows = await tokenRows(app, user.id)
    expect(rows).toHaveLength(2)
    expect(rows[0].revokedReason).toBe('rotated')
    expect(rows[0].revokedAt).toBeTruthy()
    expect(rows[1].revokedAt ?? null).toBeNull()
    expect(rows[1].familyId).toBe(rows[0].familyId)
    // Stored as an HMAC only: the raw token is nowhere in the record.
    for (const row of rows) {
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/)
      expect(JSON.stringify(row)).not.toContain(first.refreshToken)
      expect(JSON.stringify(row)).not.toContain(res.body.data.refreshToken)
    }
    // The new access token works.
    expect((await app.request('GET', '/v1/auth/me', { token: res.body.data.accessToken })).status).toBe(200)
  })

  it('revoked -> a rotated token presented again -> every refresh token of the user revoked, security log', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const deviceA = await login(app, user.email, user.password)
    const deviceB = await login(app, user.email, user.password)
    const rotated = await refresh(app, deviceA.refreshToken)
    expect(rotated.status).toBe(200)
    const replay = await refresh(app, deviceA.refreshToken)
    expect(replay.status).toBe(401)
    expect(replay.body.error.code).toBe('auth.invalid_token')
    const rows = await tokenRows(app, user.id)
    expect(rows.length).toBe(3)
    expect(rows.every((r) => r.revokedAt)).toBe(true)
    // The client must log in again: both the rotated successor and the other device are dead.
    expect((await refresh(app, rotated.body.data.refreshToken)).status).toBe(401)
    expect((await refresh(app, deviceB.refreshToken)).status).toBe(401)
    const events = app.logs.filter((l) => l.msg === 'auth.refresh.reused')
    expect(events.length).toBeGreaterThanOrEqual(1)
    expect(events[0]!.level).toBe('error')
    expect(events[0]!.userId).toBe(user.id)
    expect(events[0]!.requestId).toMatch(/^req_/)
    expectNoSecrets(app.rawLogs, [deviceA.refreshToken, deviceB.refreshToken, user.password])
  })

  it('two concurrent refreshes with one token: exactly one wins, the other counts as reuse', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const session = await login(app, user.email, user.password)
    const before = app.logs.filter((l) => l.msg === 'auth.refresh.reused').length
    const results = await Promise.all([refresh(app, session.refreshToken), refresh(app, session.refreshToken)])
    const statuses = results.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 401])
    expect(results.find((r) => r.status === 401)!.body.error.code).toBe('auth.invalid_token')
    expect(app.logs.filter((l) => l.msg === 'auth.refresh.reused').length).toBe(before + 1)
    const rows = await tokenRows(app, user.id)
    expect(rows.filter((r) => r.revokedReason === 'rotated')).toHaveLength(1)
  })

  it('the claim primitive is a conditional update: of concurrent claims exactly one succeeds', async () => {
    const app = await testApp()
    const user = await createUser(app)
    await login(app, user.email, user.password)
    const [row] = await tokenRows(app, user.id)
    const claims = await Promise.all(Array.from({ length: 5 }, () => claimRefreshToken(app.payload, row.tokenHash, 'rotated', new Date())))
    expect(claims.filter((c) => c.claimed)).toHaveLength(1)
    expect((await tokenRows(app, user.id))[0].revokedReason).toBe('rotated')
  })

  it('active -> POST /auth/logout -> the whole family revoked; another login stays valid', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const a = await login(app, user.email, user.password)
    const b = await login(app, user.email, user.password)
    const a2 = (await refresh(app, a.refreshToken)).body.data
    const out = await app.request('POST', '/v1/auth/logout', { token: a2.accessToken, body: { refreshToken: a2.refreshToken } })
    expect(out.status).toBe(200)
    expect(out.body).toMatchObject({ success: true, data: null })
    const rows = await tokenRows(app, user.id)
    const familyA = rows.filter((r) => r.familyId === rows[0].familyId)
    expect(familyA).toHaveLength(2)
    expect(familyA.every((r) => r.revokedAt)).toBe(true)
    expect(familyA.map((r) => r.revokedReason).sort()).toEqual(['logout', 'rotated'])
    expect((await refresh(app, a2.refreshToken)).status).toBe(401)
    // Device B's family is untouched.
    expect((await refresh(app, b.refreshToken)).status).toBe(200)
  })

  it('logout needs authentication and cannot revoke someone else\'s family', async () => {
    const app = await testApp()
    const owner = await createUser(app)
    const other = await createUser(app)
    const ownerSession = await login(app, owner.email, owner.password)
    const otherSession = await login(app, other.email, other.password)
    const anon = await app.request('POST', '/v1/auth/logout', { body: { refreshToken: ownerSession.refreshToken } })
    expect(anon.status).toBe(401)
    expect(anon.body.error.code).toBe('auth.missing_token')
    const foreign = await app.request('POST', '/v1/auth/logout', {
      token: otherSession.accessToken,
      body: { refreshToken: ownerSession.refreshToken },
    })
    expect(foreign.status).toBe(200)
    expect((await refresh(app, ownerSession.refreshToken)).status).toBe(200)
  })

  it('active -> POST /auth/password/change -> all refresh tokens revoked, a fresh pair issued', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const a = await login(app, user.email, user.password)
    const b = await login(app, user.email, user.password)
    const wrong = await app.request('POST', '/v1/auth/password/change', {
      token: a.accessToken,
      body: { currentPassword: 'not-my-password', newPassword: 'brand-new-password-1' },
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.code).toBe('validation.failed')
    expect(wrong.body.error.details).toEqual([{ field: 'currentPassword', constraint: 'mismatch' }])
    const short = await app.request('POST', '/v1/auth/password/change', {
      token: a.accessToken,
      body: { currentPassword: user.password, newPassword: 'short' },
    })
    expect(short.status).toBe(400)
    expect(short.body.error.details).toEqual([{ field: 'newPassword', constraint: 'min' }])
    const res = await app.request('POST', '/v1/auth/password/change', {
      token: a.accessToken,
      body: { currentPassword: user.password, newPassword: 'brand-new-password-1' },
    })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.data).sort()).toEqual(['accessToken', 'refreshToken'])
    expect((await refresh(app, a.refreshToken)).status).toBe(401)
    expect((await refresh(app, b.refreshToken)).status).toBe(401)
    const rows = await tokenRows(app, user.id)
    const live = rows.filter((r) => !r.revokedAt)
    expect(live).toHaveLength(1)
    expect(rows.filter((r) => r.revokedReason === 'password_change')).toHaveLength(2)
    expect((await refresh(app, res.body.data.refreshToken)).status).toBe(200)
    // Old password refused, new one accepted.
    const old = await app.request('POST', '/v1/auth/login', { body: { email: user.email, password: user.password }, headers: freshIp() })
    expect(old.status).toBe(401)
    await login(app, user.email, 'brand-new-password-1')
    expectNoSecrets(app.rawLogs, ['brand-new-password-1', user.password])
  })

  it('unknown, malformed and deactivated-user refresh tokens: 401 auth.invalid_token', async () => {
    const app = await testApp()
    const unknown = await refresh(app, 'A'.repeat(43))
    expect(unknown.status).toBe(401)
    expect(unknown.body.error.code).toBe('auth.invalid_token')
    const missing = await app.request('POST', '/v1/auth/refresh', { body: {}, headers: freshIp() })
    expect(missing.status).toBe(400)
    expect(missing.body.error.details).toEqual([{ field: 'refreshToken', constraint: 'required' }])

    const user = await createUser(app)
    const session = await login(app, user.email, user.password)
    // Deactivated behind the API's back (no revocation hook involved): refresh still fails.
    await app.payload.db.updateOne({ collection: 'users', id: user.id, data: { isActive: false } })
    const res = await refresh(app, session.refreshToken)
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('auth.invalid_token')
  })
})
