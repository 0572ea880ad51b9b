import { createLocalReq, getFieldsToSign, jwtSign } from 'payload'
import { addSessionToUser } from 'payload/shared'
import { describe, expect, it } from 'vitest'

import type { User } from '../../payload-types'
import { verifyPassword } from '../../src/auth/passwords'
import { type TestApp, testApp } from '../support/app'
import { ADMIN, createUser, expectNoSecrets, freshIp, login } from './helpers'

/** Payload's REST (the admin panel's API) lives at /api/<collection>: paths without /v1. */
async function adminLogin(app: TestApp, email: string, password: string) {
  return app.request('POST', '/users/login', { body: { email, password }, headers: freshIp() })
}

function cookieOf(res: { headers: Headers }): string {
  const setCookie = res.headers.get('set-cookie') ?? ''
  const match = /payload-token=([^;]+)/.exec(setCookie)
  expect(match, 'a payload-token cookie').not.toBeNull()
  return `payload-token=${match![1]}`
}

/** A Payload session for any user, made the way Payload's own login makes one (to probe access rules). */
async function forgedPanelSession(app: TestApp, userId: string): Promise<string> {
  const { payload } = app
  const collectionConfig = payload.collections.users!.config
  // The raw row, as Payload's login reads it (no afterRead hooks).
  const user = await payload.db.findOne<User>({ collection: 'users', where: { id: { equals: userId } } })
  if (!user) throw new Error(`no user ${userId}`)
  const { sid } = await addSessionToUser({ collectionConfig, payload, req: await createLocalReq({}, payload), user })
  const { token } = await jwtSign({
    fieldsToSign: getFieldsToSign({ collectionConfig, email: user.email, user, sid }),
    secret: payload.secret,
    tokenExpiration: 600,
  })
  return `payload-token=${token}`
}

async function storedSecrets(app: TestApp, email: string) {
  const res = await app.payload.find({
    collection: 'users',
    where: { email: { equals: email } },
    overrideAccess: true,
    showHiddenFields: true,
  })
  const doc = res.docs[0]!
  return { hash: doc.hash ?? null, salt: doc.salt ?? null, passwordHash: doc.passwordHash }
}

describe('admin panel sign-in on the argon2id password store', () => {
  it('POST /api/users/login accepts the argon2 password and starts a Payload session', async () => {
    const app = await testApp()
    const res = await adminLogin(app, ADMIN.email, ADMIN.password)
    expect(res.status).toBe(200)
    expect(res.body.user.email).toBe(ADMIN.email)
    expect(res.body.user).not.toHaveProperty('passwordHash')
    expect(res.body.user).not.toHaveProperty('hash')
    expect(res.body.user).not.toHaveProperty('salt')
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i)
    const cookie = cookieOf(res)
    const me = await app.request('GET', '/users/me', { headers: { cookie } })
    expect(me.status).toBe(200)
    expect(me.body.user.email).toBe(ADMIN.email)
    const users = await app.request('GET', '/users', { headers: { cookie } })
    expect(users.status).toBe(200)
    expect(users.body.docs.length).toBeGreaterThan(0)
    expectNoSecrets([users.text, me.text], [ADMIN.password])
    // Payload's own session refresh keeps working.
    expect((await app.request('POST', '/users/refresh-token', { headers: { cookie } })).status).toBe(200)
  })

  it('refuses a wrong password (401) and a member with the right one (403, no cookie)', async () => {
    const app = await testApp()
    const wrong = await adminLogin(app, ADMIN.email, 'not-the-password')
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('set-cookie')).toBeNull()
    const unknown = await adminLogin(app, 'nobody@example.com', 'not-the-password')
    expect(unknown.status).toBe(401)
    // The same answer for an unknown email and a wrong password (only the request id differs).
    expect(unknown.body.error).toEqual(wrong.body.error)
    expect(unknown.body.errors).toEqual(wrong.body.errors)
    expect(wrong.body.error.code).toBe('auth.invalid_credentials')
    const member = await createUser(app, ['member'])
    const res = await adminLogin(app, member.email, member.password)
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie')).toBeNull()
    const moderator = await createUser(app, ['moderator'])
    expect((await adminLogin(app, moderator.email, moderator.password)).status).toBe(200)
  })

  it("leaves Payload's pbkdf2 hash and salt empty for every user; the argon2id hash is the password", async () => {
    const app = await testApp()
    const user = await createUser(app, ['moderator'])
    for (const email of [ADMIN.email, user.email]) {
      const stored = await storedSecrets(app, email)
      expect(stored.hash).toBeNull()
      expect(stored.salt).toBeNull()
      // The suite hashes at the test cost (test/auth/passwordCost.test.ts holds the standard one).
      expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/)
    }
    expect(await verifyPassword((await storedSecrets(app, user.email)).passwordHash, user.password)).toBe(true)
  })

  it('a user created in the admin panel (POST /api/users with password) gets the argon2 hash and can use the API', async () => {
    const app = await testApp()
    const cookie = cookieOf(await adminLogin(app, ADMIN.email, ADMIN.password))
    const roles = await app.payload.find({ collection: 'roles', where: { name: { equals: 'moderator' } }, overrideAccess: true })
    const short = await app.request('POST', '/users', {
      headers: { cookie },
      body: { email: 'short@example.com', username: 'shorty', password: 'short', roles: [roles.docs[0]!.id] },
    })
    expect(short.status).toBe(400)
    const created = await app.request('POST', '/users', {
      headers: { cookie },
      body: { email: 'panel@example.com', username: 'panel', password: 'panel-password-1', roles: [roles.docs[0]!.id], passwordHash: 'x' },
    })
    expect(created.status).toBe(201)
    expect(created.body.doc).not.toHaveProperty('passwordHash')
    const stored = await storedSecrets(app, 'panel@example.com')
    expect(stored.hash).toBeNull()
    expect(stored.salt).toBeNull()
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/)
    const session = await login(app, 'panel@example.com', 'panel-password-1')
    expect(session.user.roles.map((r: any) => r.name)).toEqual(['moderator'])
    // Changing the password in the panel (PATCH with password) rewrites the argon2 hash only.
    const patched = await app.request('PATCH', `/users/${session.user.id}`, { headers: { cookie }, body: { password: 'panel-password-2' } })
    expect(patched.status).toBe(200)
    const after = await storedSecrets(app, 'panel@example.com')
    expect(after.hash).toBeNull()
    expect(after.passwordHash).not.toBe(stored.passwordHash)
    expect((await adminLogin(app, 'panel@example.com', 'panel-password-2')).status).toBe(200)
    expect((await adminLogin(app, 'panel@example.com', 'panel-password-1')).status).toBe(401)
    expectNoSecrets(app.rawLogs, ['panel-password-1', 'panel-password-2', ADMIN.password])
  })

  it("Payload's REST does not bypass the API rules: a member reads no users, roles or tokens", async () => {
    const app = await testApp()
    const member = await createUser(app, ['member'])
    const apiSession = await login(app, member.email, member.password)
    const cookie = await forgedPanelSession(app, member.id)
    const probes: Record<string, string>[] = [{}, { cookie }, { authorization: `Bearer ${apiSession.accessToken}` }]
    for (const headers of probes) {
      const users = await app.request('GET', '/users', { headers })
      expect(users.status).toBe(403)
      const one = await app.request('GET', `/users/${member.id}`, { headers })
      expect(one.status).toBe(403)
      const roles = await app.request('GET', '/roles', { headers })
      expect(roles.status).toBe(403)
      const tokens = await app.request('GET', '/refresh-tokens', { headers })
      expect([403, 404, 501]).toContain(tokens.status)
      expect(tokens.text).not.toContain('tokenHash')
      const create = await app.request('POST', '/users', { headers, body: { email: 'evil@example.com', username: 'evil', password: 'evil-password-12' } })
      expect(create.status).toBe(403)
    }
    // Even the admin's panel session cannot reach refresh tokens.
    const adminCookie = cookieOf(await adminLogin(app, ADMIN.email, ADMIN.password))
    const tokens = await app.request('GET', '/refresh-tokens', { headers: { cookie: adminCookie } })
    expect(tokens.status).not.toBe(200)
  })

  it('refuses the pbkdf2 password flows: forgot/reset-password, unlock, first-register once users exist', async () => {
    const app = await testApp()
    for (const path of ['/users/forgot-password', '/users/reset-password', '/users/unlock']) {
      const res = await app.request('POST', path, { body: { email: ADMIN.email, token: 'x', password: 'new-password-123' } })
      expect(res.status).toBe(403)
    }
    const first = await app.request('POST', '/users/first-register', {
      body: { email: 'first@example.com', password: 'first-password-1' },
    })
    expect(first.status).toBe(403)
    expect((await storedSecrets(app, ADMIN.email)).hash).toBeNull()
  })

  it('deactivating a user ends their admin sessions', async () => {
    const app = await testApp()
    const moderator = await createUser(app, ['moderator'])
    const cookie = cookieOf(await adminLogin(app, moderator.email, moderator.password))
    expect((await app.request('GET', '/users/me', { headers: { cookie } })).body.user?.email).toBe(moderator.email)
    const admin = await login(app, ADMIN.email, ADMIN.password)
    await app.request('DELETE', `/v1/users/${moderator.id}`, { token: admin.accessToken })
    const me = await app.request('GET', '/users/me', { headers: { cookie } })
    expect(me.body.user ?? null).toBeNull()
  })
})
