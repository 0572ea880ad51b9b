/**
 * AUTH_REFRESH_REUSE_GRACE_SECONDS (opt-in): a just-rotated refresh token presented again
 * within the window answers the same new refresh token (and a fresh access token) instead
 * of revoking everything; after the window it is reuse again. Default 0 keeps the spec's
 * behaviour (test/auth/refresh-lifecycle.test.ts runs without the variable).
 */
process.env.AUTH_REFRESH_REUSE_GRACE_SECONDS = '30'

import { describe, expect, it } from 'vitest'

import { parseConfig } from '../../src/platform/config'
import { testApp } from '../support/app'
import { createUser, decodeJwt, expectNoSecrets, login, refresh, tokenRows } from './helpers'

const reuseEvents = (app: Awaited<ReturnType<typeof testApp>>) => app.logs.filter((l) => l.msg === 'auth.refresh.reused').length

describe('AUTH_REFRESH_REUSE_GRACE_SECONDS configuration', () => {
  it('defaults to 0 (reuse revokes everything); accepts whole seconds up to 300', () => {
    expect(parseConfig({ NODE_ENV: 'test' }).auth.refreshReuseGraceSeconds).toBe(0)
    expect(parseConfig({ NODE_ENV: 'test', AUTH_REFRESH_REUSE_GRACE_SECONDS: '30' }).auth.refreshReuseGraceSeconds).toBe(30)
    for (const bad of ['-1', '1.5', 'soon', '301']) {
      expect(() => parseConfig({ NODE_ENV: 'test', AUTH_REFRESH_REUSE_GRACE_SECONDS: bad }), bad).toThrow(/AUTH_REFRESH_REUSE_GRACE_SECONDS/)
    }
  })
})

describe('refresh with a reuse grace of 30 s', () => {
  it('two presenters at once: both get the same live successor, no reuse event, nothing revoked', async () => {
    const app = await testApp()
    for (let i = 0; i < 5; i++) {
      const user = await createUser(app)
      const session = await login(app, user.email, user.password)
      const before = reuseEvents(app)
      const [a, b] = await Promise.all([refresh(app, session.refreshToken), refresh(app, session.refreshToken)])
      expect([a.status, b.status], `trial ${i}`).toEqual([200, 200])
      expect(a.body.data.refreshToken).toBe(b.body.data.refreshToken)
      expect(reuseEvents(app)).toBe(before)
      expect((await refresh(app, a.body.data.refreshToken)).status).toBe(200)
    }
  })

  it('the same token again within the window: the same new refresh token, a working access token, nothing revoked', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const other = await login(app, user.email, user.password)
    const session = await login(app, user.email, user.password)
    const before = reuseEvents(app)
    const first = await refresh(app, session.refreshToken)
    expect(first.status).toBe(200)
    const again = await refresh(app, session.refreshToken)
    expect(again.status).toBe(200)
    expect(Object.keys(again.body.data).sort()).toEqual(['accessToken', 'refreshToken'])
    expect(again.body.data.refreshToken).toBe(first.body.data.refreshToken)
    expect(decodeJwt(again.body.data.accessToken).payload.sub).toBe(user.id)
    expect((await app.request('GET', '/v1/auth/me', { token: again.body.data.accessToken })).status).toBe(200)
    expect(reuseEvents(app)).toBe(before)

    // No extra row: the replay returned the existing successor.
    const rows = await tokenRows(app, user.id)
    expect(rows).toHaveLength(3)
    const rotated = rows.filter((r) => r.revokedReason === 'rotated')
    expect(rotated).toHaveLength(1)
    expect(rows.filter((r) => !r.revokedAt)).toHaveLength(2)
    // The successor is kept only sealed (AES-256-GCM), and only until the window ends.
    expect(typeof rotated[0].graceToken).toBe('string')
    expect(new Date(rotated[0].graceUntil).getTime() - new Date(rotated[0].revokedAt).getTime()).toBe(30_000)
    expectNoSecrets([JSON.stringify(rows)], [session.refreshToken, first.body.data.refreshToken])

    // The successor and the other device keep working.
    expect((await refresh(app, first.body.data.refreshToken)).status).toBe(200)
    expect((await refresh(app, other.refreshToken)).status).toBe(200)
  })

  it('two concurrent refreshes with one token: both 200 with the same refresh token, one rotation', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const session = await login(app, user.email, user.password)
    const before = reuseEvents(app)
    const results = await Promise.all([refresh(app, session.refreshToken), refresh(app, session.refreshToken)])
    expect(results.map((r) => r.status)).toEqual([200, 200])
    expect(results[0]!.body.data.refreshToken).toBe(results[1]!.body.data.refreshToken)
    expect(reuseEvents(app)).toBe(before)
    const rows = await tokenRows(app, user.id)
    expect(rows).toHaveLength(2)
    expect(rows.filter((r) => r.revokedReason === 'rotated')).toHaveLength(1)
  })

  it('after the window the same token counts as reuse: every token of the user revoked, sealed successors cleared', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const other = await login(app, user.email, user.password)
    const session = await login(app, user.email, user.password)
    const first = await refresh(app, session.refreshToken)
    expect(first.status).toBe(200)
    const rotated = (await tokenRows(app, user.id)).find((r) => r.revokedReason === 'rotated')!
    // The window has passed (moved into the past rather than waiting 30 s).
    await app.payload.db.updateOne({ collection: 'refresh-tokens', id: rotated.id, data: { graceUntil: new Date(Date.now() - 1000).toISOString() } })
    const before = reuseEvents(app)
    const late = await refresh(app, session.refreshToken)
    expect(late.status).toBe(401)
    expect(late.body.error.code).toBe('auth.invalid_token')
    expect(reuseEvents(app)).toBe(before + 1)
    const rows = await tokenRows(app, user.id)
    expect(rows.every((r) => r.revokedAt)).toBe(true)
    expect(rows.every((r) => r.graceToken == null)).toBe(true)
    expect((await refresh(app, first.body.data.refreshToken)).status).toBe(401)
    expect((await refresh(app, other.refreshToken)).status).toBe(401)
  })

  it('a token whose successor was already rotated is reuse even within the window', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const session = await login(app, user.email, user.password)
    const t1 = (await refresh(app, session.refreshToken)).body.data.refreshToken
    expect((await refresh(app, t1)).status).toBe(200)
    const before = reuseEvents(app)
    const replay = await refresh(app, session.refreshToken)
    expect(replay.status).toBe(401)
    expect(reuseEvents(app)).toBe(before + 1)
    expect((await tokenRows(app, user.id)).every((r) => r.revokedAt)).toBe(true)
  })

  it('a token ended by logout is not revived by the grace', async () => {
    const app = await testApp()
    const user = await createUser(app)
    const session = await login(app, user.email, user.password)
    const pair = (await refresh(app, session.refreshToken)).body.data
    expect((await app.request('POST', '/v1/auth/logout', { token: pair.accessToken, body: { refreshToken: pair.refreshToken } })).status).toBe(200)
    const replay = await refresh(app, session.refreshToken)
    expect(replay.status).toBe(401)
    expect(replay.body.error.code).toBe('auth.invalid_token')
  })
})
