import { describe, expect, it } from 'vitest'

import { PERMISSIONS } from '../../src/auth/permissions'
import { content, staffWith, tokenFor } from '../content/helpers'
import { testApp } from '../support/app'

let ready: Promise<{ app: Awaited<ReturnType<typeof testApp>>; editor: string; admin: string }> | undefined
function setup() {
  ready ??= (async () => {
    const app = await testApp()
    // Writes re-check that the token's subject is an active user: sign for the bootstrap admin.
    actorId = String((await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!.id)
    // The editor holds catalog.manage alone (a write is judged by its caller's record); the admin all.
    return { app, editor: (await staffWith(app.payload, ['catalog.manage'])).token, admin: await tokenFor([...PERMISSIONS], actorId) }
  })()
  return ready
}
let actorId = ''

const surface = { slug: 'learn', label: 'Learn', routePrefix: '/learn', browseMode: 'grid', accentColor: '#2563eb', displayOrder: 1 }

describe('taxonomy writes', () => {
  it('builds surfaces → groups → channels, with per-parent slug uniqueness, into the catalog', async () => {
    const { app, editor } = await setup()
    const before = await app.request('GET', '/v1/catalog')
    const s = await app.request('POST', '/v1/catalog/surfaces', { token: editor, body: surface })
    expect(s.status).toBe(201)
    expect(s.body.data).toMatchObject({ slug: 'learn', label: 'Learn', routePrefix: '/learn', browseMode: 'grid', accentColor: '#2563eb', displayOrder: 1, isActive: true })
    await app.request('POST', '/v1/catalog/surfaces', { token: editor, body: { ...surface, slug: 'watch', label: 'Watch', routePrefix: '/watch', displayOrder: 0 } })

    const g = await app.request('POST', '/v1/catalog/surfaces/learn/groups', { token: editor, body: { slug: 'web', label: 'Web', color: '#111111', displayOrder: 2 } })
    expect(g.status).toBe(201)
    expect(g.body.data).toMatchObject({ surface: 'learn', slug: 'web', color: '#111111' })
    await app.request('POST', '/v1/catalog/surfaces/learn/groups', { token: editor, body: { slug: 'data', label: 'Data', color: '#222222', displayOrder: 1 } })
    const dupGroup = await app.request('POST', '/v1/catalog/surfaces/learn/groups', { token: editor, body: { slug: 'web', label: 'Again', color: '#333333' } })
    expect(dupGroup.status).toBe(409)
    expect(dupGroup.body.error).toMatchObject({ code: 'slug.conflict', details: { slug: 'web', entity: 'group' } })
    // The same slug in another surface is fine.
    expect((await app.request('POST', '/v1/catalog/surfaces/watch/groups', { token: editor, body: { slug: 'web', label: 'Web (watch)', color: '#444444' } })).status).toBe(201)

    const c = await app.request('POST', '/v1/catalog/surfaces/learn/groups/web/channels', { token: editor, body: { slug: 'css', label: 'CSS' } })
    expect(c.status).toBe(201)
    expect(c.body.data).toMatchObject({ group: 'web', slug: 'css', displayOrder: 0, isActive: true })
    const dupChannel = await app.request('POST', '/v1/catalog/surfaces/learn/groups/web/channels', { token: editor, body: { slug: 'css', label: 'x' } })
    expect(dupChannel.status).toBe(409)

    const p = await app.request('POST', '/v1/catalog/platforms', { token: editor, body: { slug: 'video', label: 'Video', color: '#ff0000' } })
    expect(p.status).toBe(201)
    const f = await app.request('POST', '/v1/catalog/facets', { token: editor, body: { key: 'language', label: 'Language', color: '#0ea5e9' } })
    expect(f.status).toBe(201)
    expect(f.body.data).toMatchObject({ key: 'language', label: 'Language' })

    const after = await app.request('GET', '/v1/catalog', { headers: { 'If-None-Match': before.headers.get('etag')! } })
    expect(after.status).toBe(200)
    const learn = after.body.data.surfaces.find((x: any) => x.slug === 'learn')
    expect(after.body.data.surfaces.map((x: any) => x.slug)).toEqual(['watch', 'learn'])
    expect(learn.groups.map((x: any) => x.slug)).toEqual(['data', 'web'])
    expect(learn.groups[1].channels.map((x: any) => x.slug)).toEqual(['css'])
    expect(after.body.data.platforms.map((x: any) => x.slug)).toContain('video')
    expect(after.body.data.facets.map((x: any) => x.key)).toContain('language')
  })

  it('updates order and deactivates instead of deleting; inactive nodes leave the catalog', async () => {
    const { app, editor } = await setup()
    const res = await app.request('PATCH', '/v1/catalog/surfaces/learn/groups/data', { token: editor, body: { isActive: false, label: 'Data (old)' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ slug: 'data', label: 'Data (old)', isActive: false })
    const cat = await app.request('GET', '/v1/catalog')
    const learn = cat.body.data.surfaces.find((x: any) => x.slug === 'learn')
    expect(learn.groups.map((x: any) => x.slug)).toEqual(['web'])
    expect((await app.payload.count({ collection: 'groups', where: { slug: { equals: 'data' } }, overrideAccess: true })).totalDocs).toBe(1)
    const order = await app.request('PATCH', '/v1/catalog/surfaces/watch', { token: editor, body: { displayOrder: 5 } })
    expect(order.body.data.displayOrder).toBe(5)
    expect((await app.request('GET', '/v1/catalog')).body.data.surfaces.map((x: any) => x.slug)).toEqual(['learn', 'watch'])
  })

  it('validates bodies and addresses, and guards with catalog.manage', async () => {
    const { app, editor } = await setup()
    const bad = await app.request('POST', '/v1/catalog/surfaces', { token: editor, body: { ...surface, slug: 'Bad Slug', accentColor: 'blue', browseMode: 'carousel' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.map((d: any) => `${d.field}:${d.constraint}`).sort()).toEqual(['accentColor:pattern', 'browseMode:enum'])
    const badSlug = await app.request('POST', '/v1/catalog/platforms', { token: editor, body: { slug: 'Bad Slug', label: 'x', color: '#000000' } })
    expect(badSlug.body.error.details).toEqual([{ field: 'slug', constraint: 'pattern', value: 'Bad Slug' }])
    const reserved = await app.request('POST', '/v1/catalog/platforms', { token: editor, body: { slug: 'admin', label: 'x', color: '#000000' } })
    expect(reserved.status).toBe(409)
    expect(reserved.body.error.code).toBe('slug.reserved')
    const ghost = await app.request('PATCH', '/v1/catalog/surfaces/ghost/groups/web', { token: editor, body: { label: 'x' } })
    expect(ghost.status).toBe(404)
    expect(ghost.body.error.code).toBe('surface.not_found')
    const ghostChannel = await app.request('PATCH', '/v1/catalog/surfaces/learn/groups/web/channels/ghost', { token: editor, body: { label: 'x' } })
    expect(ghostChannel.body.error.code).toBe('channel.not_found')
    const moderator = (await staffWith(app.payload, ['content.moderate', 'tag.manage'])).token
    expect((await app.request('POST', '/v1/catalog/platforms', { token: moderator, body: { slug: 'x', label: 'x', color: '#000000' } })).status).toBe(403)
  })

  it('renames a group as an admin operation; its content follows', async () => {
    const { app, editor, admin } = await setup()
    const groupId = (await app.payload.find({ collection: 'groups', where: { slug: { equals: 'web' }, label: { equals: 'Web' } }, overrideAccess: true })).docs[0]!.id
    await content(app.payload, { slug: 'in-web', group: groupId })
    const byEditor = await app.request('POST', '/v1/catalog/surfaces/learn/groups/web/rename', { token: editor, body: { newSlug: 'frontend' } })
    expect(byEditor.status).toBe(403)
    expect(byEditor.body.error.code).toBe('auth.forbidden')
    const taken = await app.request('POST', '/v1/catalog/surfaces/learn/groups/web/rename', { token: admin, body: { newSlug: 'data' } })
    expect(taken.status).toBe(409)
    const res = await app.request('POST', '/v1/catalog/surfaces/learn/groups/web/rename', { token: admin, body: { newSlug: 'frontend' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ surface: 'learn', slug: 'frontend' })
    const item = await app.request('GET', '/v1/content/in-web')
    expect(item.body.data.group).toBe('frontend')
    expect((await app.request('GET', '/v1/content?group=frontend')).body.data.map((d: any) => d.slug)).toEqual(['in-web'])
    expect((await app.request('GET', '/v1/content?group=web')).body.data).toEqual([])
    // Channels stay addressable under the renamed group.
    expect((await app.request('PATCH', '/v1/catalog/surfaces/learn/groups/frontend/channels/css', { token: editor, body: { displayOrder: 3 } })).status).toBe(200)
    const platform = await app.request('POST', '/v1/catalog/platforms/video/rename', { token: editor, body: { newSlug: 'videos' } })
    expect(platform.status).toBe(200)
    expect(platform.body.data.slug).toBe('videos')
  })
})
