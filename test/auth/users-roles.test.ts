import { describe, expect, it } from 'vitest'

import { PERMISSIONS } from '../../src/auth/permissions'
import { testApp } from '../support/app'
import { adminSession, createUser, decodeJwt, expectNoSecrets, freshIp, login, refresh, tokenRows, USER_DTO_KEYS } from './helpers'

const ROLE_KEYS = ['createdAt', 'description', 'id', 'name', 'permissions', 'updatedAt']

describe('roles CRUD (role.manage)', () => {
  it('creates, reads, lists, updates and deletes a role', async () => {
    const app = await testApp()
    const { accessToken: token } = await adminSession(app)
    const created = await app.request('POST', '/v1/roles', {
      token,
      body: { name: 'editor', description: 'Edits tags', permissions: ['tag.manage', 'catalog.manage'] },
    })
    expect(created.status).toBe(201)
    expect(Object.keys(created.body.data).sort()).toEqual(ROLE_KEYS)
    expect(created.body.data.permissions).toEqual(['catalog.manage', 'tag.manage'])
    const id = created.body.data.id
    expect(id).toMatch(/^[0-9a-f]{24}$/)
    expect((await app.request('GET', `/v1/roles/${id}`, { token })).body.data).toEqual(created.body.data)
    const list = await app.request('GET', '/v1/roles', { token })
    expect(list.body.data.map((r: any) => r.name)).toEqual(['admin', 'editor', 'member', 'moderator'])
    const patched = await app.request('PATCH', `/v1/roles/${id}`, { token, body: { permissions: ['tag.manage'] } })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ name: 'editor', description: 'Edits tags', permissions: ['tag.manage'] })
    const dup = await app.request('POST', '/v1/roles', { token, body: { name: 'editor', permissions: [] } })
    expect(dup.status).toBe(409)
    expect(dup.body.error.code).toBe('role.name_taken')
    const deleted = await app.request('DELETE', `/v1/roles/${id}`, { token })
    expect(deleted.status).toBe(200)
    expect(deleted.body.data).toEqual({ deleted: true, id })
    const gone = await app.request('GET', `/v1/roles/${id}`, { token })
    expect(gone.status).toBe(404)
    expect(gone.body.error.code).toBe('role.not_found')
    expect((await app.request('GET', '/v1/roles/not-an-id', { token })).body.error.code).toBe('role.not_found')
  })

  it('rejects unknown permission strings with 400 validation.failed', async () => {
    const app = await testApp()
    const { accessToken: token } = await adminSession(app)
    const res = await app.request('POST', '/v1/roles', { token, body: { name: 'bad', permissions: ['tag.manage', 'root.everything'] } })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation.failed')
    expect(res.body.error.details).toEqual([{ field: 'permissions.1', constraint: 'enum', value: 'root.everything' }])
    const roles = await app.payload.count({ collection: 'roles', where: { name: { equals: 'bad' } }, overrideAccess: true })
    expect(roles.totalDocs).toBe(0)
  })

  it('protects the seeded admin role (409 role.protected) and roles in use (409 role.in_use)', async () => {
    const app = await testApp()
    const { accessToken: token } = await adminSession(app)
    const roles = (await app.request('GET', '/v1/roles', { token })).body.data
    const admin = roles.find((r: any) => r.name === 'admin')
    const member = roles.find((r: any) => r.name === 'member')
    const lose = await app.request('PATCH', `/v1/roles/${admin.id}`, { token, body: { permissions: ['user.manage'] } })
    expect(lose.status).toBe(409)
    expect(lose.body.error.code).toBe('role.protected')
    const rename = await app.request('PATCH', `/v1/roles/${admin.id}`, { token, body: { name: 'root' } })
    expect(rename.body.error.code).toBe('role.protected')
    const del = await app.request('DELETE', `/v1/roles/${admin.id}`, { token })
    expect(del.status).toBe(409)
    expect(del.body.error.code).toBe('role.protected')
    // The description may still change.
    expect((await app.request('PATCH', `/v1/roles/${admin.id}`, { token, body: { description: 'All of it' } })).status).toBe(200)
    const stored = (await app.request('GET', `/v1/roles/${admin.id}`, { token })).body.data
    expect(stored.permissions).toEqual([...PERMISSIONS].sort())
    // member is held by a user.
    await createUser(app, ['member'])
    const inUse = await app.request('DELETE', `/v1/roles/${member.id}`, { token })
    expect(inUse.status).toBe(409)
    expect(inUse.body.error.code).toBe('role.in_use')
    expect((await app.payload.count({ collection: 'roles', overrideAccess: true })).totalDocs).toBe(3)
  })

  it('role edits change the permissions of tokens issued afterwards, not before', async () => {
    const app = await testApp()
    const { accessToken: token } = await adminSession(app)
    const role = (await app.request('POST', '/v1/roles', { token, body: { name: 'curator', permissions: ['tag.manage'] } })).body.data
    const user = await createUser(app, [role.id])
    const before = await login(app, user.email, user.password)
    expect(decodeJwt(before.accessToken).payload.permissions).toEqual(['content.submit', 'tag.manage'])
    await app.request('PATCH', `/v1/roles/${role.id}`, { token, body: { permissions: ['tag.manage', 'role.manage'] } })
    expect((await app.request('GET', '/v1/roles', { token: before.accessToken })).status).toBe(403)
    const after = await refresh(app, before.refreshToken)
    expect(decodeJwt(after.body.data.accessToken).payload.permissions).toEqual(['content.submit', 'role.manage', 'tag.manage'])
    expect((await app.request('GET', '/v1/roles', { token: after.body.data.accessToken })).status).toBe(200)
  })
})

describe('permission guards', () => {
  it('no token 401, a member 403 auth.forbidden on /users and /roles', async () => {
    const app = await testApp()
    const member = await createUser(app)
    const session = await login(app, member.email, member.password)
    for (const path of ['/v1/users', '/v1/roles', `/v1/users/${member.id}`]) {
      const anon = await app.request('GET', path)
      expect(anon.status).toBe(401)
      expect(anon.body.error.code).toBe('auth.missing_token')
      const res = await app.request('GET', path, { token: session.accessToken })
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('auth.forbidden')
    }
  })

  it('AND semantics: role.manage alone does not open /users, user.manage alone does not open /roles', async () => {
    const app = await testApp()
    const { accessToken: token } = await adminSession(app)
    await app.request('POST', '/v1/roles', { token, body: { name: 'rolesonly', permissions: ['role.manage'] } })
    await app.request('POST', '/v1/roles', { token, body: { name: 'usersonly', permissions: ['user.manage'] } })
    const r = await createUser(app, ['rolesonly'])
    const u = await createUser(app, ['usersonly'])
    const rs = await login(app, r.email, r.password)
    const us = await login(app, u.email, u.password)
    expect((await app.request('GET', '/v1/roles', { token: rs.accessToken })).status).toBe(200)
    expect((await app.request('GET', '/v1/users', { token: rs.accessToken })).status).toBe(403)
    expect((await app.request('GET', '/v1/users', { token: us.accessToken })).status).toBe(200)
    expect((await app.request('GET', '/v1/roles', { token: us.accessToken })).status).toBe(403)
  })
})

describe('users CRUD (user.manage)', () => {
  it('creates with roles by name or id, reads, lists, updates; never a hash', async () => {
    const app = await testApp()
    const { accessToken: token } = await adminSession(app)
    const roles = (await app.request('GET', '/v1/roles', { token })).body.data
    const moderator = roles.find((r: any) => r.name === 'moderator')
    const created = await app.request('POST', '/v1/users', {
      token,
      body: { email: 'Mod@Example.com', username: 'moddy', password: 'moderator-pass-1', roles: ['member', moderator.id] },
    })
    expect(created.status).toBe(201)
    const user = created.body.data
    expect(Object.keys(user).sort()).toEqual(USER_DTO_KEYS)
    expect(user.email).toBe('mod@example.com')
    expect(user.roles.map((r: any) => r.name).sort()).toEqual(['member', 'moderator'])
    const unknownRole = await app.request('POST', '/v1/users', {
      token,
      body: { email: 'x@example.com', username: 'xx1', password: 'moderator-pass-1', roles: ['nope'] },
    })
    expect(unknownRole.status).toBe(400)
    expect(unknownRole.body.error.details).toEqual([{ field: 'roles.0', constraint: 'exists', value: 'nope' }])
    const dup = await app.request('POST', '/v1/users', {
      token,
      body: { email: 'mod@example.com', username: 'other', password: 'moderator-pass-1' },
    })
    expect(dup.status).toBe(409)
    expect(dup.body.error.code).toBe('user.email_taken')

    const got = await app.request('GET', `/v1/users/${user.id}`, { token })
    expect(got.body.data).toEqual(user)
    const list = await app.request('GET', '/v1/users?limit=1&offset=1', { token })
    expect(list.status).toBe(200)
    expect(list.body.data).toHaveLength(1)
    const total = (await app.payload.count({ collection: 'users', overrideAccess: true })).totalDocs
    expect(total).toBeGreaterThanOrEqual(2)
    expect(list.body.pagination).toEqual({ offset: 1, limit: 1, total, hasMore: total > 2 })
    // The one pagination rule (src/platform/pagination.ts): limit=0 is the count, out of range is 400.
    const count = await app.request('GET', '/v1/users?limit=0', { token })
    expect(count.status).toBe(200)
    expect(count.body.data).toEqual([])
    expect(count.body.pagination).toEqual({ offset: 0, limit: 0, total, hasMore: true })
    expect((await app.request('GET', '/v1/users?limit=201', { token })).body.error.code).toBe('pagination.invalid')

    const patched = await app.request('PATCH', `/v1/users/${user.id}`, { token, body: { username: 'moddy2', roles: ['moderator'] } })
    expect(patched.status).toBe(200)
    expect(patched.body.data.username).toBe('moddy2')
    expect(patched.body.data.roles.map((r: any) => r.name)).toEqual(['moderator'])
    // An admin-set password replaces the hash and revokes the user's refresh tokens.
    const s = await login(app, 'mod@example.com', 'moderator-pass-1')
    const pw = await app.request('PATCH', `/v1/users/${user.id}`, { token, body: { password: 'reset-by-admin-1' } })
    expect(pw.status).toBe(200)
    expect((await refresh(app, s.refreshToken)).status).toBe(401)
    await login(app, 'mod@example.com', 'reset-by-admin-1')

    const missing = await app.request('GET', '/v1/users/0123456789abcdef01234567', { token })
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('user.not_found')
    expectNoSecrets([created.text, got.text, list.text, patched.text, pw.text], ['moderator-pass-1', 'reset-by-admin-1'])
    expectNoSecrets(app.rawLogs, ['moderator-pass-1', 'reset-by-admin-1', s.refreshToken, s.accessToken])
  })

  it('DELETE deactivates: isActive=false, refresh tokens revoked, login refused, record kept', async () => {
    const app = await testApp()
    const { accessToken: token } = await adminSession(app)
    const user = await createUser(app)
    const session = await login(app, user.email, user.password)
    const res = await app.request('DELETE', `/v1/users/${user.id}`, { token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ deleted: true, id: user.id })
    const stored = await app.payload.findByID({ collection: 'users', id: user.id, overrideAccess: true })
    expect(stored.isActive).toBe(false)
    const rows = await tokenRows(app, user.id)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((r) => r.revokedAt && r.revokedReason === 'deactivated')).toBe(true)
    expect((await refresh(app, session.refreshToken)).status).toBe(401)
    const relog = await app.request('POST', '/v1/auth/login', { body: { email: user.email, password: user.password }, headers: freshIp() })
    expect(relog.status).toBe(401)
    expect(relog.body.error.code).toBe('auth.invalid_credentials')
    const me = await app.request('GET', '/v1/auth/me', { token: session.accessToken })
    expect(me.status).toBe(401)
    expect((await app.request('GET', `/v1/users/${user.id}`, { token })).body.data.isActive).toBe(false)
  })
})
