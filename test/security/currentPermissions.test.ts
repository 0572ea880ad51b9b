/**
 * Every write is authorised by the caller's user record now (decisions.md, "Who may write"; issue
 * 52.2): an access token names its caller, and the caller's roles' permissions today, its
 * `isActive` and its last password change decide what it may write. Before, the permissions came
 * from the token: an admin demoted to member made itself admin again, and a new admin, with the
 * token it held; a demoted moderator still approved. Each path (the API, Payload's REST, the
 * console's endpoints) for each change (a demotion, a role losing a permission, a deactivation, a
 * password change), and a change made by another process. Reads stay stateless (the spec).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'

import { generation } from '../../src/db/engine'
import { adminSession, consoleCookie, createUser, login } from '../auth/helpers'
import { content, taxonomy } from '../content/helpers'
import { eventually, ownWritesEchoed } from '../support/crossProcess'
import { updateInOtherProcess } from '../support/otherProcess'
import { type TestApp, testApp } from '../support/app'

let app: TestApp
let admin: { accessToken: string }
let roleIds: Record<string, string>

beforeAll(async () => {
  app = await testApp()
  await taxonomy(app.payload)
  admin = await adminSession(app)
  const roles = await app.payload.find({ collection: 'roles', pagination: false, overrideAccess: true })
  roleIds = Object.fromEntries(roles.docs.map((r) => [r.name, String(r.id)]))
}, 120_000)

const rolesOf = async (id: string) =>
  ((await app.payload.findByID({ collection: 'users', id, depth: 1, overrideAccess: true })).roles ?? []).map((r) => (typeof r === 'object' ? r.name : r))
const usersNamed = async (email: string) => (await app.payload.count({ collection: 'users', where: { email: { equals: email } }, overrideAccess: true })).totalDocs
const statusOf = async (id: string) => (await app.payload.findByID({ collection: 'content', id, depth: 0, overrideAccess: true })).status

function expectRefused(res: { status: number; body: any }, status: 401 | 403) {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body.error.code).toBe(status === 401 ? 'auth.invalid_token' : 'auth.forbidden')
}

async function demote(userId: string, to = 'member') {
  const res = await app.request('PATCH', `/v1/users/${userId}`, { token: admin.accessToken, body: { roles: [to] } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

const pending = () => content(app.payload, { status: 'pending', approvedAt: null })

/** Waits for the next whole second: a token's `iat` and the recorded password change are whole seconds. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1_050 - (Date.now() % 1_000)))

describe('the API: a write is judged by the caller as it stands now', () => {
  it('a demoted admin cannot make itself admin again, nor create an admin, with the token it held', async () => {
    const b = await createUser(app, ['admin'])
    const held = await login(app, b.email, b.password)
    await demote(b.id)
    expectRefused(await app.request('PATCH', `/v1/users/${b.id}`, { token: held.accessToken, body: { roles: [roleIds.admin] } }), 403)
    const email = `made-by-demoted-${process.pid}@example.com`
    const created = await app.request('POST', '/v1/users', {
      token: held.accessToken,
      body: { email, username: `mbd${process.pid}`, password: 'a-long-password-1', roles: ['admin'] },
    })
    expectRefused(created, 403)
    expectRefused(await app.request('POST', '/v1/roles', { token: held.accessToken, body: { name: 'backdoor-2', permissions: ['user.manage'] } }), 403)
    expect(await rolesOf(b.id)).toEqual(['member'])
    expect(await usersNamed(email)).toBe(0)
    // Reads stay stateless until the token expires (the specification's access tokens).
    expect((await app.request('GET', '/v1/users', { token: held.accessToken })).status).toBe(200)
  })

  it('a moderator demoted to member no longer approves or rejects; the item stays pending', async () => {
    const m = await createUser(app, ['moderator'])
    const held = await login(app, m.email, m.password)
    const item = await pending()
    await demote(m.id)
    expectRefused(await app.request('POST', `/v1/content/${item.slug}/approve`, { token: held.accessToken }), 403)
    expectRefused(await app.request('POST', `/v1/content/${item.slug}/reject`, { token: held.accessToken, body: { reason: 'x' } }), 403)
    expect(await statusOf(item.id)).toBe('pending')
  })

  it('a role that loses a permission takes it from every holder’s next write', async () => {
    const role = await app.request('POST', '/v1/roles', { token: admin.accessToken, body: { name: `approvers-${process.pid}`, permissions: ['content.approve'] } })
    expect(role.status, JSON.stringify(role.body)).toBe(201)
    const u = await createUser(app, [role.body.data.id])
    const held = await login(app, u.email, u.password)
    const first = await pending()
    expect((await app.request('POST', `/v1/content/${first.slug}/approve`, { token: held.accessToken })).status).toBe(200)
    const edit = await app.request('PATCH', `/v1/roles/${role.body.data.id}`, { token: admin.accessToken, body: { permissions: [] } })
    expect(edit.status, JSON.stringify(edit.body)).toBe(200)
    const second = await pending()
    expectRefused(await app.request('POST', `/v1/content/${second.slug}/approve`, { token: held.accessToken }), 403)
    expect(await statusOf(second.id)).toBe('pending')
  })

  it('a promotion counts at once as well: current permissions decide, not the token’s', async () => {
    const u = await createUser(app, ['member'])
    const held = await login(app, u.email, u.password)
    await demote(u.id, 'moderator')
    const item = await pending()
    expect((await app.request('POST', `/v1/content/${item.slug}/approve`, { token: held.accessToken })).status).toBe(200)
    expect(await statusOf(item.id)).toBe('approved')
  })

  it('a deactivated user writes nothing (401), its token still reads', async () => {
    const m = await createUser(app, ['moderator'])
    const held = await login(app, m.email, m.password)
    const item = await pending()
    expect((await app.request('DELETE', `/v1/users/${m.id}`, { token: admin.accessToken })).status).toBe(200)
    expectRefused(await app.request('POST', `/v1/content/${item.slug}/approve`, { token: held.accessToken }), 401)
    expect(await statusOf(item.id)).toBe('pending')
    expect((await app.request('GET', '/v1/content', { token: held.accessToken })).status).toBe(200)
  })

  it('a token issued before a password change writes nothing; the one issued with the change does', async () => {
    const u = await createUser(app, ['moderator'])
    const old = await login(app, u.email, u.password)
    await nextSecond()
    const change = await app.request('POST', '/v1/auth/password/change', {
      token: old.accessToken,
      body: { currentPassword: u.password, newPassword: 'another-long-password-2' },
    })
    expect(change.status, JSON.stringify(change.body)).toBe(200)
    const item = await pending()
    expectRefused(await app.request('POST', `/v1/content/${item.slug}/approve`, { token: old.accessToken }), 401)
    expect(await statusOf(item.id)).toBe('pending')
    expect((await app.request('POST', `/v1/content/${item.slug}/approve`, { token: change.body.data.accessToken })).status).toBe(200)
  })

  it('a password set by an administrator ends the user’s earlier tokens for writes too', async () => {
    const u = await createUser(app, ['moderator'])
    const old = await login(app, u.email, u.password)
    await nextSecond()
    expect((await app.request('PATCH', `/v1/users/${u.id}`, { token: admin.accessToken, body: { password: 'set-by-the-admin-3' } })).status).toBe(200)
    const item = await pending()
    expectRefused(await app.request('POST', `/v1/content/${item.slug}/approve`, { token: old.accessToken }), 401)
    expect(await statusOf(item.id)).toBe('pending')
  })

  it('is one cached lookup: a user’s writes read its record once until a user or role changes', async () => {
    const m = await createUser(app, ['moderator'])
    const held = await login(app, m.email, m.password)
    const items = [await pending(), await pending(), await pending()]
    await ownWritesEchoed(app.payload, ['access'])
    const reads = vi.spyOn(app.payload.db, 'findOne')
    const readsOfUser = () => reads.mock.calls.filter(([args]) => args.collection === 'users' && JSON.stringify(args.where).includes(m.id)).length
    try {
      expect((await app.request('POST', `/v1/content/${items[0]!.slug}/approve`, { token: held.accessToken })).status).toBe(200)
      expect((await app.request('POST', `/v1/content/${items[1]!.slug}/approve`, { token: held.accessToken })).status).toBe(200)
      expect(readsOfUser()).toBe(1)
      // Any user's change moves the access generation: the next write reads again.
      await demote((await createUser(app, ['member'])).id, 'member')
      expect((await app.request('POST', `/v1/content/${items[2]!.slug}/approve`, { token: held.accessToken })).status).toBe(200)
      expect(readsOfUser()).toBe(2)
    } finally {
      reads.mockRestore()
    }
  })

  it('a demotion made by another process holds here too (its generation reaches this process)', async () => {
    const m = await createUser(app, ['moderator'])
    const held = await login(app, m.email, m.password)
    const warm = await pending()
    // The standing is cached in this process now.
    expect((await app.request('POST', `/v1/content/${warm.slug}/approve`, { token: held.accessToken })).status).toBe(200)
    const access = generation(app.payload, 'access')
    await updateInOtherProcess({ collection: 'users', where: { id: { equals: m.id } }, data: { roles: [roleIds.member] } })
    const item = await pending()
    // Within the cross-process bound (SQLite's counters are read every 10 ms; MongoDB's change
    // stream delivers), not at once: waited for without writing (an approval tried meanwhile would
    // land before the demotion reached this process), then one approval, refused.
    expect(await eventually(() => generation(app.payload, 'access'), (g) => g !== access)).not.toBe(access)
    expect((await app.request('POST', `/v1/content/${item.slug}/approve`, { token: held.accessToken })).status).toBe(403)
    expect(await statusOf(item.id)).toBe('pending')
  }, 120_000)
})

describe('Payload’s REST and the console: the session’s user as it stands now', () => {
  it('a demoted admin’s console session cannot give itself admin back or create an admin', async () => {
    const b = await createUser(app, ['admin'])
    const cookie = await consoleCookie(app, b.email, b.password)
    await demote(b.id, 'moderator')
    const self = await app.request('PATCH', `/users/${b.id}`, { headers: { cookie }, body: { roles: [roleIds.admin] } })
    expect(self.status, self.text).toBe(403)
    const email = `console-made-${process.pid}@example.com`
    const made = await app.request('POST', '/users', { headers: { cookie }, body: { email, username: `cm${process.pid}`, password: 'a-long-password-1', roles: [roleIds.admin] } })
    expect(made.status, made.text).toBe(403)
    expect(await rolesOf(b.id)).toEqual(['moderator'])
    expect(await usersNamed(email)).toBe(0)
  })

  it('a moderator demoted to member: the console’s approve is refused and its session no longer enters', async () => {
    const m = await createUser(app, ['moderator'])
    const cookie = await consoleCookie(app, m.email, m.password)
    const item = await pending()
    await demote(m.id)
    const approve = await app.request('POST', `/content/moderation/${item.id}/approve`, { headers: { cookie } })
    expect(approve.status, approve.text).toBe(403)
    expect(await statusOf(item.id)).toBe('pending')
  })

  it('a role edit: the console’s next approve by its holder is refused', async () => {
    const role = await app.payload.create({ collection: 'roles', data: { name: `console-approvers-${process.pid}`, permissions: ['content.moderate', 'content.approve'] }, overrideAccess: true })
    const u = await createUser(app, [String(role.id)])
    const cookie = await consoleCookie(app, u.email, u.password)
    const item = await pending()
    expect((await app.request('PATCH', `/v1/roles/${role.id}`, { token: admin.accessToken, body: { permissions: ['content.moderate'] } })).status).toBe(200)
    const approve = await app.request('POST', `/content/moderation/${item.id}/approve`, { headers: { cookie } })
    expect(approve.status, approve.text).toBe(403)
    expect(await statusOf(item.id)).toBe('pending')
  })

  it('deactivation and a password change end the console session: its writes are 401, nothing written', async () => {
    for (const change of [{ isActive: false }, { password: 'console-reset-password-4' }]) {
      const m = await createUser(app, ['moderator'])
      const cookie = await consoleCookie(app, m.email, m.password)
      const item = await pending()
      expect((await app.request('PATCH', `/v1/users/${m.id}`, { token: admin.accessToken, body: change })).status).toBe(200)
      const approve = await app.request('POST', `/content/moderation/${item.id}/approve`, { headers: { cookie } })
      expect(approve.status, `${JSON.stringify(change)}: ${approve.text}`).toBe(401)
      const rest = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie }, body: { title: 'Changed by a stale session' } })
      expect([401, 403], `${JSON.stringify(change)}: ${rest.text}`).toContain(rest.status)
      expect(await statusOf(item.id)).toBe('pending')
      expect((await app.payload.findByID({ collection: 'content', id: item.id, overrideAccess: true })).title).not.toBe('Changed by a stale session')
    }
  })
})
