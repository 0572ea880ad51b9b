/**
 * Two rules beside "only holders grant":
 * - a role is edited or deleted only by someone holding every permission it holds (a role.manage
 *   holder once deleted the seeded moderator role, permissions it lacks and all);
 * - the last active holder of a permission keeps it: the only admin cannot take away its own
 *   admin role or be deactivated (everyone would be locked out of granting what it alone holds).
 * On /api/v1 and in the console (Payload REST) alike.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from '../support/app'
import { ADMIN, consoleCookie, createUser, login } from '../auth/helpers'

let app: TestApp
let adminToken: string
let adminId: string
let adminCookie: string
let roleManager: { token: string; cookie: string }

const roleId = async (name: string) =>
  String((await app.payload.find({ collection: 'roles', where: { name: { equals: name } }, depth: 0 })).docs[0]!.id)

beforeAll(async () => {
  app = await testApp()
  const admin = await login(app, ADMIN.email, ADMIN.password)
  adminToken = admin.accessToken
  adminId = String(admin.user.id)
  adminCookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
  const managerRole = await app.payload.create({ collection: 'roles', data: { name: 'role-manager', permissions: ['role.manage'] }, overrideAccess: true })
  const manager = await createUser(app, [String(managerRole.id)])
  roleManager = { token: (await login(app, manager.email, manager.password)).accessToken, cookie: await consoleCookie(app, manager.email, manager.password) }
})

describe('a role is edited or deleted only by a holder of every permission it holds', () => {
  it('API: role.manage alone cannot delete or edit the seeded moderator role (403), the role stays', async () => {
    const moderator = await roleId('moderator')
    const del = await app.request('DELETE', `/v1/roles/${moderator}`, { token: roleManager.token })
    expect(del.status, del.text).toBe(403)
    expect(del.body.error.code).toBe('auth.forbidden')
    expect(del.body.error.details.missing.length).toBeGreaterThan(0)
    const edit = await app.request('PATCH', `/v1/roles/${moderator}`, { body: { description: 'renamed by a stranger' }, token: roleManager.token })
    expect(edit.status, edit.text).toBe(403)
    const stored = await app.payload.findByID({ collection: 'roles', id: moderator, depth: 0 })
    expect(stored.description).not.toBe('renamed by a stranger')
  })

  it('console: the same refusals through Payload REST', async () => {
    const unused = await app.payload.create({ collection: 'roles', data: { name: 'approvers', permissions: ['content.approve'] }, overrideAccess: true })
    const del = await app.request('DELETE', `/roles/${unused.id}`, { headers: { cookie: roleManager.cookie } })
    expect(del.status, del.text).toBe(403)
    const edit = await app.request('PATCH', `/roles/${unused.id}`, { body: { description: 'x' }, headers: { cookie: roleManager.cookie } })
    expect(edit.status, edit.text).toBe(403)
    expect(await app.payload.count({ collection: 'roles', where: { id: { equals: unused.id } } })).toEqual({ totalDocs: 1 })
  })

  it('a holder of every permission of the role may delete it', async () => {
    const own = await app.payload.create({ collection: 'roles', data: { name: 'managers-only', permissions: ['role.manage'] }, overrideAccess: true })
    const del = await app.request('DELETE', `/v1/roles/${own.id}`, { token: roleManager.token })
    expect(del.status, del.text).toBe(200)
  })
})

describe('the last active holder of a permission keeps it', () => {
  it('the only admin cannot remove its own admin role (API), and keeps it', async () => {
    const member = await roleId('member')
    const res = await app.request('PATCH', `/v1/users/${adminId}`, { body: { roles: [member] }, token: adminToken })
    expect(res.status, res.text).toBe(409)
    expect(res.body.error.code).toBe('user.last_holder')
    // user.manage has no other holder; role.manage does (the role manager), so it is not named.
    expect(res.body.error.details.permissions).toEqual(expect.arrayContaining(['user.manage']))
    expect(res.body.error.details.permissions).not.toContain('role.manage')
    const stored = await app.payload.findByID({ collection: 'users', id: adminId, depth: 0 })
    expect((stored.roles ?? []).map(String)).toContain(await roleId('admin'))
  })

  it('nor be deactivated (API), nor lose its role or be deactivated through the console', async () => {
    const res = await app.request('DELETE', `/v1/users/${adminId}`, { token: adminToken })
    expect(res.status, res.text).toBe(409)
    expect(res.body.error.code).toBe('user.last_holder')
    const roles = await app.request('PATCH', `/users/${adminId}`, { body: { roles: [await roleId('member')] }, headers: { cookie: adminCookie } })
    expect(roles.status, roles.text).toBe(409)
    const inactive = await app.request('PATCH', `/users/${adminId}`, { body: { isActive: false }, headers: { cookie: adminCookie } })
    expect(inactive.status, inactive.text).toBe(409)
    // Users are never deleted, whoever asks.
    const deleted = await app.request('DELETE', `/users/${adminId}`, { headers: { cookie: adminCookie } })
    expect(deleted.status, deleted.text).toBe(403)
    const stored = await app.payload.findByID({ collection: 'users', id: adminId, depth: 0 })
    expect(stored.isActive).not.toBe(false)
  })

  it('with a second active admin, the first may step down', async () => {
    const second = await createUser(app, [await roleId('admin')])
    const res = await app.request('PATCH', `/v1/users/${second.id}`, { body: { roles: [await roleId('member')] }, token: adminToken })
    expect(res.status, res.text).toBe(200)
    // Now the bootstrap admin is the only one again: refused once more.
    expect((await app.request('DELETE', `/v1/users/${adminId}`, { token: adminToken })).status).toBe(409)
  })
})
