/**
 * Reordering the taxonomy: POST …/reorder { slugs } sets each child's displayOrder to its
 * position, all in one transaction (a list that is not exactly the parent's children, or a
 * failure half-way, changes nothing), and the catalog's ETag moves with it.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { PERMISSIONS } from '../../src/auth/permissions'
import { reorderTaxonomy } from '../../src/db/workflow'
import { createUser, freshIp } from '../auth/helpers'
import { staffWith, tokenFor } from '../content/helpers'
import type { Where } from 'payload'

import type { Permission } from '../../src/auth/permissions'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let editor = ''
let member = ''

const order = async (collection: 'surfaces' | 'groups' | 'channels', where: Where = {}) =>
  (await app.payload.find({ collection, where, sort: 'displayOrder', pagination: false, depth: 0, overrideAccess: true })).docs.map((d) => [d.slug, d.displayOrder])
const catalog = () => app.request('GET', '/v1/catalog')
const groupsOf = (body: any, surface: string) => body.data.surfaces.find((s: any) => s.slug === surface).groups.map((g: any) => g.slug)

beforeAll(async () => {
  app = await testApp()
  const actorId = String((await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!.id)
  editor = await tokenFor(['catalog.manage'], actorId)
  // A write is judged by its caller's record: a user holding every permission but this one.
  member = (await staffWith(app.payload, PERMISSIONS.filter((p) => p !== 'catalog.manage'))).token
  const post = async (path: string, body: Record<string, unknown>) => expect((await app.request('POST', path, { token: editor, body })).status).toBe(201)
  for (const [i, slug] of ['learn', 'watch', 'read'].entries()) {
    await post('/v1/catalog/surfaces', { slug, label: slug, routePrefix: `/${slug}`, browseMode: 'grid', accentColor: '#2563eb', displayOrder: i })
  }
  for (const [i, slug] of ['web', 'data', 'design', 'science'].entries()) {
    await post('/v1/catalog/surfaces/learn/groups', { slug, label: slug, color: '#111111', displayOrder: i })
  }
  await post('/v1/catalog/surfaces/watch/groups', { slug: 'web', label: 'Web (watch)', color: '#111111' })
  for (const [i, slug] of ['css', 'html', 'js'].entries()) {
    await post('/v1/catalog/surfaces/learn/groups/web/channels', { slug, label: slug, displayOrder: i })
  }
})

describe('taxonomy reorder', () => {
  it('sets the groups of one surface to the exact order given, and the catalog (and its ETag) follows', async () => {
    const before = await catalog()
    expect(groupsOf(before.body, 'learn')).toEqual(['web', 'data', 'design', 'science'])
    const res = await app.request('POST', '/v1/catalog/surfaces/learn/groups/reorder', { token: editor, body: { slugs: ['science', 'web', 'design', 'data'] } })
    expect(res.status).toBe(200)
    expect(res.body.data.map((g: any) => [g.slug, g.displayOrder, g.surface])).toEqual([
      ['science', 0, 'learn'],
      ['web', 1, 'learn'],
      ['design', 2, 'learn'],
      ['data', 3, 'learn'],
    ])
    const after = await app.request('GET', '/v1/catalog', { headers: { 'If-None-Match': before.headers.get('etag')! } })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(groupsOf(after.body, 'learn')).toEqual(['science', 'web', 'design', 'data'])
    // The other surface's group of the same slug is untouched.
    expect(groupsOf(after.body, 'watch')).toEqual(['web'])
  })

  it('reorders surfaces and channels too', async () => {
    const s = await app.request('POST', '/v1/catalog/surfaces/reorder', { token: editor, body: { slugs: ['read', 'learn', 'watch'] } })
    expect(s.status).toBe(200)
    expect(await order('surfaces')).toEqual([['read', 0], ['learn', 1], ['watch', 2]])
    const c = await app.request('POST', '/v1/catalog/surfaces/learn/groups/web/channels/reorder', { token: editor, body: { slugs: ['js', 'css', 'html'] } })
    expect(c.status).toBe(200)
    expect(c.body.data.map((x: any) => x.slug)).toEqual(['js', 'css', 'html'])
    const cat = (await catalog()).body.data
    expect(cat.surfaces.map((x: any) => x.slug)).toEqual(['read', 'learn', 'watch'])
    const web = cat.surfaces[1].groups.find((g: any) => g.slug === 'web')
    expect(web.channels.map((x: any) => x.slug)).toEqual(['js', 'css', 'html'])
  })

  it('refuses a list that is not exactly the children (missing, unknown, repeated) with 400 validation.failed, changing nothing', async () => {
    const before = await order('surfaces')
    const etag = (await catalog()).headers.get('etag')
    const cases: [unknown, unknown[]][] = [
      [['read', 'learn'], [{ field: 'slugs', constraint: 'required', value: 'watch' }]],
      [['read', 'learn', 'watch', 'nope'], [{ field: 'slugs[3]', constraint: 'unknown', value: 'nope' }]],
      [['read', 'learn', 'learn'], [{ field: 'slugs[2]', constraint: 'duplicate', value: 'learn' }, { field: 'slugs', constraint: 'required', value: 'watch' }]],
    ]
    for (const [slugs, details] of cases) {
      const res = await app.request('POST', '/v1/catalog/surfaces/reorder', { token: editor, body: { slugs } })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatchObject({ code: 'validation.failed', details })
    }
    for (const body of [{}, { slugs: [] }, { slugs: 'learn' }, { slugs: ['learn'], extra: 1 }]) {
      const res = await app.request('POST', '/v1/catalog/surfaces/reorder', { token: editor, body })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation.failed')
    }
    // A group's list is checked against that surface's groups only.
    const cross = await app.request('POST', '/v1/catalog/surfaces/watch/groups/reorder', { token: editor, body: { slugs: ['web', 'data'] } })
    expect(cross.status).toBe(400)
    expect(await order('surfaces')).toEqual(before)
    expect((await catalog()).headers.get('etag')).toBe(etag)
  })

  it('an unknown parent is 404', async () => {
    const res = await app.request('POST', '/v1/catalog/surfaces/nope/groups/reorder', { token: editor, body: { slugs: ['web'] } })
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('surface.not_found')
    const ch = await app.request('POST', '/v1/catalog/surfaces/learn/groups/nope/channels/reorder', { token: editor, body: { slugs: ['x'] } })
    expect(ch.status).toBe(404)
    expect(ch.body.error.code).toBe('group.not_found')
  })

  it('is one transaction: a failure after the first write rolls every displayOrder back', async () => {
    const before = await order('surfaces')
    const ids = (await app.payload.find({ collection: 'surfaces', sort: '-displayOrder', pagination: false, overrideAccess: true })).docs.map((d) => String(d.id))
    await expect(
      reorderTaxonomy(app.payload, {
        collection: 'surfaces',
        orderedIds: ids,
        at: new Date(),
        afterFirstWrite: () => {
          throw new Error('crash half-way')
        },
      }),
    ).rejects.toThrow('crash half-way')
    expect(await order('surfaces')).toEqual(before)
  })

  it('needs catalog.manage: anonymous 401, a caller holding every other permission 403, nothing changed', async () => {
    const before = await order('surfaces')
    const anon = await app.request('POST', '/v1/catalog/surfaces/reorder', { body: { slugs: ['watch', 'learn', 'read'] } })
    expect(anon.status).toBe(401)
    const denied = await app.request('POST', '/v1/catalog/surfaces/reorder', { token: member, body: { slugs: ['watch', 'learn', 'read'] } })
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe('auth.forbidden')
    expect(await order('surfaces')).toEqual(before)
  })
})

/** A console session (Payload's cookie) for a new user holding exactly `permissions`. */
async function consoleCookie(permissions: Permission[]): Promise<string> {
  const role = await app.payload.create({ collection: 'roles', data: { name: `console-${Math.random().toString(36).slice(2, 8)}`, permissions }, overrideAccess: true })
  const user = await createUser(app, [String(role.id)])
  const res = await app.request('POST', '/users/login', { body: { email: user.email, password: user.password }, headers: freshIp() })
  expect(res.status, res.text).toBe(200)
  return `payload-token=${/payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`
}

describe('the console tree endpoints (session cookie, same services)', () => {
  const idOf = async (collection: 'surfaces' | 'groups', slug: string, where: Where = {}) =>
    String((await app.payload.find({ collection, where: { slug: { equals: slug }, ...where }, limit: 1, overrideAccess: true })).docs[0]!.id)

  it('reorders, toggles active and creates a child for a catalog.manage session; the catalog follows', async () => {
    const cookie = await consoleCookie(['catalog.manage'])
    const learn = await idOf('surfaces', 'learn')
    const before = await catalog()
    const res = await app.request('POST', '/surfaces/tree/reorder', { headers: { cookie }, body: { kind: 'group', parentId: learn, slugs: ['data', 'design', 'web', 'science'] } })
    expect(res.status, res.text).toBe(200)
    expect(res.body.data.map((g: any) => g.slug)).toEqual(['data', 'design', 'web', 'science'])
    const after = await catalog()
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(groupsOf(after.body, 'learn')).toEqual(['data', 'design', 'web', 'science'])

    const bad = await app.request('POST', '/surfaces/tree/reorder', { headers: { cookie }, body: { kind: 'group', parentId: learn, slugs: ['data', 'web'] } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('validation.failed')
    expect(groupsOf((await catalog()).body, 'learn')).toEqual(['data', 'design', 'web', 'science'])

    const design = await idOf('groups', 'design', { surface: { equals: learn } })
    const off = await app.request('POST', '/surfaces/tree/active', { headers: { cookie }, body: { kind: 'group', id: design, isActive: false } })
    expect(off.status, off.text).toBe(200)
    expect(off.body.data).toMatchObject({ slug: 'design', isActive: false })
    expect(groupsOf((await catalog()).body, 'learn')).toEqual(['data', 'web', 'science'])
    await app.request('POST', '/surfaces/tree/active', { headers: { cookie }, body: { kind: 'group', id: design, isActive: true } })

    const child = await app.request('POST', '/surfaces/tree/create', { headers: { cookie }, body: { kind: 'channel', parentId: design, label: 'Colour & Light' } })
    expect(child.status, child.text).toBe(200)
    expect(child.body.data).toMatchObject({ slug: 'colour-light', label: 'Colour & Light', group: 'design', displayOrder: 0, isActive: true, parentId: design })
    // The slug default (src/platform/slug.ts): a derived slug that is taken gets -2; an explicit one is 409.
    const again = await app.request('POST', '/surfaces/tree/create', { headers: { cookie }, body: { kind: 'channel', parentId: design, label: 'Colour & Light' } })
    expect(again.status, again.text).toBe(200)
    expect(again.body.data).toMatchObject({ slug: 'colour-light-2', label: 'Colour & Light', group: 'design' })
    const taken = await app.request('POST', '/surfaces/tree/create', { headers: { cookie }, body: { kind: 'channel', parentId: design, label: 'Other', slug: 'colour-light' } })
    expect(taken.status).toBe(409)
    expect(taken.body.error.code).toBe('slug.conflict')
    const noParent = await app.request('POST', '/surfaces/tree/create', { headers: { cookie }, body: { kind: 'group', label: 'Orphan' } })
    expect(noParent.status).toBe(400)
    expect(noParent.body.error.details).toEqual([{ field: 'parentId', constraint: 'required' }])
  })

  it('refuses sessions without catalog.manage (403) and callers without a session (401), changing nothing', async () => {
    const cookie = await consoleCookie(PERMISSIONS.filter((p) => p !== 'catalog.manage'))
    const before = await order('surfaces')
    const body = { kind: 'surface', slugs: [...before].reverse().map(([slug]) => slug) }
    const denied = await app.request('POST', '/surfaces/tree/reorder', { headers: { cookie }, body })
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe('auth.forbidden')
    const anonymous = await app.request('POST', '/surfaces/tree/reorder', { body })
    expect(anonymous.status).toBe(401)
    const create = await app.request('POST', '/surfaces/tree/create', { headers: { cookie }, body: { kind: 'surface', label: 'Sneaky' } })
    expect(create.status).toBe(403)
    expect(await order('surfaces')).toEqual(before)
    expect(await app.payload.count({ collection: 'surfaces', where: { slug: { equals: 'sneaky' } }, overrideAccess: true })).toMatchObject({ totalDocs: 0 })
  })
})
