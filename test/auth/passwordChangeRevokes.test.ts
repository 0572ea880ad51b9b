/**
 * A password change revokes every refresh token of that user, whatever route changed it: the
 * API, Payload REST for one user or many (`PATCH /api/users?where=…`), the Local API. The bulk
 * change once revoked the tokens of the first matched user only (a per-request flag that the
 * first user's afterChange consumed).
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from '../support/app'
import { ADMIN, consoleCookie, createUser, login, refresh, tokenRows } from './helpers'

let app: TestApp
let adminCookie: string

beforeAll(async () => {
  app = await testApp()
  adminCookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
})

/** Users each holding a live refresh token. */
async function signedInUsers(n: number, tag: string) {
  const users = []
  for (let i = 0; i < n; i++) {
    const user = await createUser(app)
    const session = await login(app, user.email, user.password)
    users.push({ ...user, id: String(user.id), refreshToken: session.refreshToken as string, tag })
  }
  return users
}

const liveTokens = async (userId: string) => (await tokenRows(app, userId)).filter((r) => !r.revokedAt)

describe('every user whose password changes loses every refresh token', () => {
  it('Payload REST bulk update (where=…): all matched users, not only the first', async () => {
    const users = await signedInUsers(3, 'bulk')
    const where = users.map((u, i) => `where[or][${i}][id][equals]=${u.id}`).join('&')
    const res = await app.request('PATCH', `/users?${where}`, { body: { password: 'a-brand-new-password-1' }, headers: { cookie: adminCookie } })
    expect(res.status, res.text).toBe(200)
    expect(res.body.docs).toHaveLength(3)
    for (const u of users) {
      expect(await liveTokens(u.id), u.email).toEqual([])
      expect((await tokenRows(app, u.id)).every((r) => r.revokedReason === 'password_change')).toBe(true)
      expect((await refresh(app, u.refreshToken)).status).toBe(401)
    }
  })

  it('Payload REST for one user, and the Local API', async () => {
    const [one, two] = await signedInUsers(2, 'single')
    const res = await app.request('PATCH', `/users/${one!.id}`, { body: { password: 'a-brand-new-password-2' }, headers: { cookie: adminCookie } })
    expect(res.status, res.text).toBe(200)
    expect(await liveTokens(one!.id)).toEqual([])
    await app.payload.update({ collection: 'users', id: two!.id, data: { password: 'a-brand-new-password-3' }, overrideAccess: true })
    expect(await liveTokens(two!.id)).toEqual([])
  })

  it('a bulk update without a password revokes nothing', async () => {
    const users = await signedInUsers(2, 'nopassword')
    const where = users.map((u, i) => `where[or][${i}][id][equals]=${u.id}`).join('&')
    const res = await app.request('PATCH', `/users?${where}`, { body: { isActive: true }, headers: { cookie: adminCookie } })
    expect(res.status, res.text).toBe(200)
    for (const u of users) expect(await liveTokens(u.id)).toHaveLength(1)
  })
})
