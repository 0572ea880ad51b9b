/**
 * One slug default for content, tags and taxonomy (src/platform/slug.ts): a derived slug that is
 * reserved or taken gets -2, -3, …; an explicit reserved slug stays 409 slug.reserved.
 */
import { describe, expect, it } from 'vitest'

import { taxonomy, tokenFor } from '../content/helpers'
import { testApp } from '../support/app'

let ready: Promise<{ app: Awaited<ReturnType<typeof testApp>>; editor: string; admin: string }> | undefined

function setup() {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    const user = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
    const { PERMISSIONS } = await import('../../src/auth/permissions')
    return { app, editor: await tokenFor(['tag.manage', 'catalog.manage'], String(user.id)), admin: await tokenFor([...PERMISSIONS], String(user.id)) }
  })()
  return ready
}

describe('the slug default', () => {
  it('a tag labelled "Search" gets search-2 (as /slug/suggest says), the next search-3; an explicit "search" is 409 slug.reserved', async () => {
    const { app, editor } = await setup()
    const suggested = await app.request('POST', '/v1/slug/suggest', { body: { value: 'Search', entity: 'tag' } })
    expect(suggested.body.data).toEqual({ slug: 'search-2' })
    const first = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'Search', facet: 'topic' } })
    expect(first.status, first.text).toBe(201)
    expect(first.body.data).toMatchObject({ slug: 'search-2', label: 'Search' })
    const second = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'Search', facet: 'topic' } })
    expect(second.status, second.text).toBe(201)
    expect(second.body.data.slug).toBe('search-3')
    const explicit = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'Search', facet: 'topic', slug: 'search' } })
    expect(explicit.status).toBe(409)
    expect(explicit.body.error).toMatchObject({ code: 'slug.reserved', details: { slug: 'search', field: 'slug' } })
    const explicitTaken = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'Other', facet: 'topic', slug: 'search-2' } })
    expect(explicitTaken.status).toBe(409)
    expect(explicitTaken.body.error.code).toBe('slug.conflict')
    const stored = await app.payload.find({ collection: 'tags', where: { label: { equals: 'Search' } }, overrideAccess: true })
    expect(stored.docs.map((d: any) => d.slug).sort()).toEqual(['search-2', 'search-3'])
  })

  it('a tag whose derived slug is taken gets -2', async () => {
    const { app, editor } = await setup()
    const res = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'SQL', facet: 'topic' } })
    expect(res.status, res.text).toBe(201)
    expect(res.body.data.slug).toBe('sql-2')
  })

  it('a label with no letters or digits is 400 validation.failed (no_alphanumerics)', async () => {
    const { app, editor } = await setup()
    const res = await app.request('POST', '/v1/tags', { token: editor, body: { label: '!!!', facet: 'topic' } })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'validation.failed', details: [{ field: 'label', constraint: 'no_alphanumerics', value: '!!!' }] })
  })

  it('a surface labelled "Admin" gets admin-2; an explicit "admin" is 409 slug.reserved; a platform, group and facet follow the same rule', async () => {
    const { app, admin, editor } = await setup()
    const surface = { label: 'Admin', routePrefix: '/admin-area', browseMode: 'grid', accentColor: '#2563eb' }
    const derived = await app.request('POST', '/v1/catalog/surfaces', { token: admin, body: surface })
    expect(derived.status, derived.text).toBe(201)
    expect(derived.body.data).toMatchObject({ slug: 'admin-2', label: 'Admin' })
    const explicit = await app.request('POST', '/v1/catalog/surfaces', { token: admin, body: { ...surface, slug: 'admin' } })
    expect(explicit.status).toBe(409)
    expect(explicit.body.error.code).toBe('slug.reserved')

    const platform = await app.request('POST', '/v1/catalog/platforms', { token: editor, body: { label: 'YouTube', color: '#ff0000' } })
    expect(platform.status, platform.text).toBe(201)
    expect(platform.body.data.slug).toBe('youtube-2')
    const group = await app.request('POST', '/v1/catalog/surfaces/admin-2/groups', { token: editor, body: { label: 'Settings', color: '#111111' } })
    expect(group.status, group.text).toBe(201)
    expect(group.body.data).toMatchObject({ slug: 'settings-2', surface: 'admin-2' })
    const facet = await app.request('POST', '/v1/catalog/facets', { token: editor, body: { label: 'Topic', color: '#111111' } })
    expect(facet.status, facet.text).toBe(201)
    expect(facet.body.data.key).toBe('topic-2')
  })
})
