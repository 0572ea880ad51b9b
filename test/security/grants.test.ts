/**
 * Only holders grant (issue 9, findings 1, 2 and 11): a caller may grant only permissions it
 * holds, and may not act on a user who holds a permission it lacks, through /api/v1 and
 * through Payload's REST (the admin console) alike. Payload's REST never shows auth internals.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { verifyPassword } from '../../src/auth/passwords'
import { ADMIN, adminSession, createUser, freshIp, login } from '../auth/helpers'
import { type TestApp, testApp } from '../support/app'

type Fixture = {
  app: TestApp
  adminToken: string
  adminId: string
  roleIds: Record<string, string>
  /** Holds only user.manage (role `usersonly`). */
  userManager: { id: string; email: string; password: string; token: string }
  /** Holds only role.manage (role `rolesonly`). */
  roleManager: { id: string; email: string; password: string; token: string }
}

let fixture: Fixture

beforeAll(async () => {
  const app = await testApp()
  const admin = await adminSession(app)
  for (const [name, permissions] of [
    ['usersonly', ['user.manage']],
    ['rolesonly', ['role.manage']],
  ] as const) {
    const res = await app.request('POST', '/v1/roles', { token: admin.accessToken, body: { name, permissions } })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  const roles = (await app.request('GET', '/v1/roles', { token: admin.accessToken })).body.data as { id: string; name: string }[]
  const roleIds = Object.fromEntries(roles.map((r) => [r.name, r.id]))
  const u = await createUser(app, ['usersonly'])
  const r = await createUser(app, ['rolesonly'])
  fixture = {
    app,
    adminToken: admin.accessToken,
    adminId: admin.user.id,
    roleIds,
    userManager: { ...u, token: (await login(app, u.email, u.password)).accessToken },
    roleManager: { ...r, token: (await login(app, r.email, r.password)).accessToken },
  }
})

/** The stored user, straight from the database (hash included). */
async function storedUser(app: TestApp, id: string) {
  const doc = await app.payload.findByID({ collection: 'users', id, depth: 0, overrideAccess: true, showHiddenFields: true })
  return { email: doc.email, roles: [...(doc.roles ?? [])].map(String).sort(), isActive: doc.isActive, passwordHash: doc.passwordHash }
}

async function storedRolePermissions(app: TestApp, id: string): Promise<string[]> {
  const doc = await app.payload.findByID({ collection: 'roles', id, depth: 0, overrideAccess: true })
  return [...(doc.permissions ?? [])].sort()
}

function expectForbidden(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(403)
  expect(res.body.error.code).toBe('auth.forbidden')
}

/** A Payload admin-console session cookie, from the console's own sign-in. */
async function consoleCookie(app: TestApp, email: string, password: string): Promise<string> {
  const res = await app.request('POST', '/users/login', { body: { email, password }, headers: freshIp() })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const match = /payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')
  expect(match).not.toBeNull()
  return `payload-token=${match![1]}`
}

describe('user.manage alone cannot escalate (API)', () => {
  it('cannot give itself the admin role, by id or by name; its roles stay as they were', async () => {
    const { app, userManager, roleIds } = fixture
    const before = await storedUser(app, userManager.id)
    for (const roles of [[roleIds.admin!], ['admin'], ['usersonly', 'moderator']]) {
      expectForbidden(await app.request('PATCH', `/v1/users/${userManager.id}`, { token: userManager.token, body: { roles } }))
    }
    expect(await storedUser(app, userManager.id)).toEqual(before)
    // A fresh token still carries only what it held.
    const again = await login(app, userManager.email, userManager.password)
    expect(again.user.roles.map((r: any) => r.name)).toEqual(['usersonly'])
  })

  it('cannot give another user the admin or moderator role, nor create a user with it', async () => {
    const { app, userManager } = fixture
    const member = await createUser(app, ['member'])
    const before = await storedUser(app, member.id)
    expectForbidden(await app.request('PATCH', `/v1/users/${member.id}`, { token: userManager.token, body: { roles: ['admin'] } }))
    expectForbidden(await app.request('PATCH', `/v1/users/${member.id}`, { token: userManager.token, body: { roles: ['moderator'] } }))
    expect(await storedUser(app, member.id)).toEqual(before)
    const created = await app.request('POST', '/v1/users', {
      token: userManager.token,
      body: { email: 'escalated@example.com', username: 'escalated', password: 'escalated-pass-1', roles: ['admin'] },
    })
    expectForbidden(created)
    expect((await app.payload.count({ collection: 'users', where: { email: { equals: 'escalated@example.com' } }, overrideAccess: true })).totalDocs).toBe(0)
  })

  it('may grant what it holds: member and usersonly to others, a user with no roles given (member)', async () => {
    const { app, userManager, roleIds } = fixture
    const member = await createUser(app, ['member'])
    const res = await app.request('PATCH', `/v1/users/${member.id}`, { token: userManager.token, body: { roles: ['member', 'usersonly'] } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await storedUser(app, member.id)).roles).toEqual([roleIds.member!, roleIds.usersonly!].sort())
    const created = await app.request('POST', '/v1/users', {
      token: userManager.token,
      body: { email: 'plain@example.com', username: 'plainuser', password: 'plain-password-1' },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.data.roles.map((r: any) => r.name)).toEqual(['member'])
  })

  it("cannot change the admin's password, email or roles, nor deactivate the admin; the admin still signs in", async () => {
    const { app, userManager, adminId } = fixture
    const before = await storedUser(app, adminId)
    const token = userManager.token
    for (const body of [
      { password: 'taken-over-pass-1' },
      { email: 'attacker@example.com' },
      { roles: ['member'] },
      { isActive: false },
      { username: 'renamed' },
    ]) {
      expectForbidden(await app.request('PATCH', `/v1/users/${adminId}`, { token, body }))
    }
    expectForbidden(await app.request('DELETE', `/v1/users/${adminId}`, { token }))
    const after = await storedUser(app, adminId)
    expect(after).toEqual(before)
    expect(await verifyPassword(after.passwordHash, ADMIN.password)).toBe(true)
    expect((await app.request('POST', '/v1/auth/login', { body: { email: ADMIN.email, password: 'taken-over-pass-1' }, headers: freshIp() })).status).toBe(401)
    await login(app, ADMIN.email, ADMIN.password)
  })

  it('cannot act on a moderator (who holds permissions it lacks), but may on a member', async () => {
    const { app, userManager } = fixture
    const moderator = await createUser(app, ['moderator'])
    const before = await storedUser(app, moderator.id)
    expectForbidden(await app.request('PATCH', `/v1/users/${moderator.id}`, { token: userManager.token, body: { password: 'another-pass-123' } }))
    expectForbidden(await app.request('DELETE', `/v1/users/${moderator.id}`, { token: userManager.token }))
    expect(await storedUser(app, moderator.id)).toEqual(before)
    const member = await createUser(app, ['member'])
    const res = await app.request('PATCH', `/v1/users/${member.id}`, { token: userManager.token, body: { password: 'another-pass-123' } })
    expect(res.status).toBe(200)
    expect((await app.request('DELETE', `/v1/users/${member.id}`, { token: userManager.token })).status).toBe(200)
    expect((await storedUser(app, member.id)).isActive).toBe(false)
  })
})

describe('role.manage alone cannot escalate (API)', () => {
  it('cannot add user.manage to its own role, to member, or create a role with it', async () => {
    const { app, roleManager, roleIds } = fixture
    const ownBefore = await storedRolePermissions(app, roleIds.rolesonly!)
    const memberBefore = await storedRolePermissions(app, roleIds.member!)
    expectForbidden(
      await app.request('PATCH', `/v1/roles/${roleIds.rolesonly}`, { token: roleManager.token, body: { permissions: ['role.manage', 'user.manage'] } }),
    )
    expectForbidden(
      await app.request('PATCH', `/v1/roles/${roleIds.member}`, { token: roleManager.token, body: { permissions: ['content.submit', 'user.manage'] } }),
    )
    expectForbidden(await app.request('POST', '/v1/roles', { token: roleManager.token, body: { name: 'sneaky', permissions: ['user.manage'] } }))
    expect(await storedRolePermissions(app, roleIds.rolesonly!)).toEqual(ownBefore)
    expect(await storedRolePermissions(app, roleIds.member!)).toEqual(memberBefore)
    expect((await app.payload.count({ collection: 'roles', where: { name: { equals: 'sneaky' } }, overrideAccess: true })).totalDocs).toBe(0)
  })

  it('cannot take from a role a permission it does not hold (that changes every holder)', async () => {
    const { app, roleManager, roleIds } = fixture
    const before = await storedRolePermissions(app, roleIds.moderator!)
    expectForbidden(await app.request('PATCH', `/v1/roles/${roleIds.moderator}`, { token: roleManager.token, body: { permissions: ['tag.manage'] } }))
    expect(await storedRolePermissions(app, roleIds.moderator!)).toEqual(before)
  })

  it('may grant what it holds, and edit names and descriptions', async () => {
    const { app, roleManager } = fixture
    const created = await app.request('POST', '/v1/roles', { token: roleManager.token, body: { name: 'deputy', permissions: ['role.manage'] } })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const renamed = await app.request('PATCH', `/v1/roles/${created.body.data.id}`, {
      token: roleManager.token,
      body: { name: 'deputy2', description: 'Deputy role manager', permissions: ['role.manage'] },
    })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
  })
})

describe('the holder of every permission can do all of it (API)', () => {
  it('grants admin, creates an admin, edits roles and any user', async () => {
    const { app, adminToken } = fixture
    const member = await createUser(app, ['member'])
    const promoted = await app.request('PATCH', `/v1/users/${member.id}`, { token: adminToken, body: { roles: ['admin'], password: 'promoted-pass-1' } })
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200)
    expect(promoted.body.data.roles.map((r: any) => r.name)).toEqual(['admin'])
    const created = await app.request('POST', '/v1/users', {
      token: adminToken,
      body: { email: 'second-admin@example.com', username: 'secondadmin', password: 'second-admin-pass', roles: ['admin'] },
    })
    expect(created.status).toBe(201)
    const role = await app.request('POST', '/v1/roles', { token: adminToken, body: { name: 'grantee', permissions: ['content.submit'] } })
    const widened = await app.request('PATCH', `/v1/roles/${role.body.data.id}`, { token: adminToken, body: { permissions: ['content.submit', 'user.manage'] } })
    expect(widened.status).toBe(200)
    expect(widened.body.data.permissions).toEqual(['content.submit', 'user.manage'])
    // One admin may deactivate another.
    expect((await app.request('DELETE', `/v1/users/${member.id}`, { token: adminToken })).status).toBe(200)
  })
})

describe("the console's REST obeys the same rule", () => {
  it('user.manage alone: PATCH /api/users/<self> with the admin role is 403 and changes nothing', async () => {
    const { app, userManager, roleIds } = fixture
    const cookie = await consoleCookie(app, userManager.email, userManager.password)
    const before = await storedUser(app, userManager.id)
    const res = await app.request('PATCH', `/users/${userManager.id}`, { headers: { cookie }, body: { roles: [roleIds.admin] } })
    expect(res.status, res.text).toBe(403)
    expect(await storedUser(app, userManager.id)).toEqual(before)
  })

  it("user.manage alone: no admin-role user via POST /api/users, no change to the admin's password, email, roles or activity", async () => {
    const { app, userManager, roleIds, adminId } = fixture
    const cookie = await consoleCookie(app, userManager.email, userManager.password)
    const created = await app.request('POST', '/users', {
      headers: { cookie },
      body: { email: 'console-admin@example.com', username: 'consoleadmin', password: 'console-admin-pass', roles: [roleIds.admin] },
    })
    expect(created.status, created.text).toBe(403)
    expect((await app.payload.count({ collection: 'users', where: { email: { equals: 'console-admin@example.com' } }, overrideAccess: true })).totalDocs).toBe(0)
    const before = await storedUser(app, adminId)
    for (const body of [{ password: 'taken-over-pass-1' }, { email: 'attacker@example.com' }, { roles: [roleIds.member] }, { isActive: false }]) {
      const res = await app.request('PATCH', `/users/${adminId}`, { headers: { cookie }, body })
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(403)
    }
    // The bulk form (PATCH /api/users?where=...) does not get around it either.
    await app.request('PATCH', `/users?where[id][equals]=${adminId}`, { headers: { cookie }, body: { password: 'taken-over-pass-1' } })
    expect(await storedUser(app, adminId)).toEqual(before)
    // What it holds, it may grant in the console too.
    const member = await createUser(app, ['member'])
    const ok = await app.request('PATCH', `/users/${member.id}`, { headers: { cookie }, body: { roles: [roleIds.member, roleIds.usersonly] } })
    expect(ok.status, ok.text).toBe(200)
  })

  it('role.manage alone: PATCH /api/roles adding user.manage (own role, member) and POST /api/roles are 403', async () => {
    const { app, roleManager, roleIds } = fixture
    const cookie = await consoleCookie(app, roleManager.email, roleManager.password)
    const ownBefore = await storedRolePermissions(app, roleIds.rolesonly!)
    const memberBefore = await storedRolePermissions(app, roleIds.member!)
    const own = await app.request('PATCH', `/roles/${roleIds.rolesonly}`, { headers: { cookie }, body: { permissions: ['role.manage', 'user.manage'] } })
    expect(own.status, own.text).toBe(403)
    const member = await app.request('PATCH', `/roles/${roleIds.member}`, { headers: { cookie }, body: { permissions: ['content.submit', 'user.manage'] } })
    expect(member.status, member.text).toBe(403)
    const created = await app.request('POST', '/roles', { headers: { cookie }, body: { name: 'console-sneaky', permissions: ['user.manage'] } })
    expect(created.status, created.text).toBe(403)
    expect(await storedRolePermissions(app, roleIds.rolesonly!)).toEqual(ownBefore)
    expect(await storedRolePermissions(app, roleIds.member!)).toEqual(memberBefore)
    expect((await app.payload.count({ collection: 'roles', where: { name: { equals: 'console-sneaky' } }, overrideAccess: true })).totalDocs).toBe(0)
  })

  it('the admin console session can grant anything', async () => {
    const { app, roleIds } = fixture
    const cookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
    const member = await createUser(app, ['member'])
    const promoted = await app.request('PATCH', `/users/${member.id}`, { headers: { cookie }, body: { roles: [roleIds.admin] } })
    expect(promoted.status, promoted.text).toBe(200)
    expect((await storedUser(app, member.id)).roles).toEqual([roleIds.admin])
    const role = await app.request('POST', '/roles', { headers: { cookie }, body: { name: 'console-grantee', permissions: ['user.manage'] } })
    expect(role.status, role.text).toBe(201)
  })
})

describe("Payload's REST shows no auth internals", () => {
  it('GET /api/users, /api/users/<id> and /api/users/me show no sessions, hashes or salts; the console still works', async () => {
    const { app } = fixture
    const moderator = await createUser(app, ['moderator'])
    // The moderator's console sign-in gives it a session the admin must not see.
    await consoleCookie(app, moderator.email, moderator.password)
    const signIn = await app.request('POST', '/users/login', { body: ADMIN, headers: freshIp() })
    expect(signIn.status).toBe(200)
    expect(signIn.body.user).not.toHaveProperty('sessions')
    const cookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
    const list = await app.request('GET', '/users?limit=100&depth=1', { headers: { cookie } })
    expect(list.status).toBe(200)
    expect(list.body.docs.length).toBeGreaterThan(1)
    const one = await app.request('GET', `/users/${moderator.id}`, { headers: { cookie } })
    expect(one.status).toBe(200)
    const me = await app.request('GET', '/users/me', { headers: { cookie } })
    expect(me.status).toBe(200)
    expect(me.body.user.email).toBe(ADMIN.email)
    for (const doc of [...list.body.docs, one.body, me.body.user]) {
      for (const key of ['sessions', 'hash', 'salt', 'passwordHash', 'resetPasswordToken', 'resetPasswordExpiration', 'loginAttempts', 'lockUntil']) {
        expect(doc, `${doc.email} shows ${key}`).not.toHaveProperty(key)
      }
    }
    for (const text of [list.text, one.text, me.text]) expect(text).not.toMatch(/"sessions"|\$argon2|"salt"|"hash"/)
    // Payload still validates the console session from the stored sessions.
    const refreshed = await app.request('POST', '/users/refresh-token', { headers: { cookie } })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.user.email).toBe(ADMIN.email)
    expect(refreshed.body.user).not.toHaveProperty('sessions')
    expect((await app.request('GET', '/users/me', { headers: { cookie } })).body.user.email).toBe(ADMIN.email)
  })
})
