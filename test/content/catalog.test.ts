import { beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from '../support/app'
import { generation } from '../../src/db/engine'
import { eventually } from '../support/crossProcess'
import { updateInOtherProcess } from '../support/otherProcess'
import { taxonomy } from './helpers'

let app: TestApp
let t: Awaited<ReturnType<typeof taxonomy>>

const catalog = (etag?: string) =>
  app.request('GET', '/v1/catalog', { headers: etag ? { 'If-None-Match': etag } : {} })

beforeAll(async () => {
  app = await testApp()
  t = await taxonomy(app.payload)
  // inactive entities never appear
  await app.payload.create({ collection: 'channels', data: { group: t.programming.id, slug: 'retired', label: 'Retired', displayOrder: 0, isActive: false }, overrideAccess: true })
  await app.payload.create({ collection: 'platforms', data: { slug: 'gone', label: 'Gone', color: '#000000', displayOrder: 0, isActive: false }, overrideAccess: true })
})

describe('GET /catalog', () => {
  it('returns the active tree by displayOrder, facets, platforms, updatedAt and etag', async () => {
    const res = await catalog()
    expect(res.status).toBe(200)
    const data = res.body.data
    expect(Object.keys(data).sort()).toEqual(['etag', 'facets', 'platforms', 'surfaces', 'updatedAt'])
    expect(data.surfaces.map((s: any) => s.slug)).toEqual(['discover', 'learn'])
    expect(data.surfaces[1]).toEqual({
      slug: 'learn', label: 'Learn', routePrefix: '/learn', browseMode: 'grid', accentColor: '#2563eb', displayOrder: 1,
      groups: [
        { slug: 'programming', label: 'Programming', color: '#111111', displayOrder: 0, channels: [
          { slug: 'web', label: 'Web', displayOrder: 0 },
          { slug: 'systems', label: 'Systems', displayOrder: 1 },
        ] },
        { slug: 'data', label: 'Data', color: '#222222', displayOrder: 1, channels: [{ slug: 'web', label: 'Data web', displayOrder: 0 }] },
      ],
    })
    // groups are listed even with no content
    expect(data.surfaces[0].groups).toEqual([{ slug: 'programming', label: 'Programming (D)', color: '#333333', displayOrder: 0, channels: [] }])
    expect(data.facets.map((f: any) => f.key)).toEqual(['topic', 'format', 'level', 'source-type', 'unclassified'])
    expect(data.facets[0]).toEqual({ key: 'topic', label: 'Topic', color: '#2563eb' })
    expect(data.platforms).toEqual([
      { slug: 'youtube', label: 'YouTube', color: '#ff0000' },
      { slug: 'blog', label: 'Blog', color: '#f59e0b' },
      { slug: 'podcast', label: 'Podcast', color: '#8b5cf6' },
    ])
    expect(data.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(data.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/)
    expect(res.headers.get('etag')).toBe(data.etag)
    expect(res.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate')
  })

  it('answers 304 with no body to a matching If-None-Match, 200 to a stale one', async () => {
    const first = await catalog()
    const etag = first.headers.get('etag')!
    const again = await catalog(etag)
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate')
    expect((await catalog('W/"stale"')).status).toBe(200)
    expect((await catalog(`W/"x", ${etag}`)).status).toBe(304)
  })

  const writes: [string, () => Promise<unknown>][] = [
    ['surface', () => app.payload.update({ collection: 'surfaces', id: t.learn.id, data: { label: 'Learning' }, overrideAccess: true })],
    ['group', () => app.payload.update({ collection: 'groups', id: t.data.id, data: { displayOrder: 5 }, overrideAccess: true })],
    ['channel', () => app.payload.create({ collection: 'channels', data: { group: t.data.id, slug: 'ml', label: 'ML', displayOrder: 0 }, overrideAccess: true })],
    ['platform', () => app.payload.update({ collection: 'platforms', id: t.blog.id, data: { color: '#00ff00' }, overrideAccess: true })],
    ['tag', async () => app.payload.update({ collection: 'tags', where: { slug: { equals: 'sql' } }, data: { label: 'Structured Query Language' }, overrideAccess: true })],
  ]
  for (const [entity, write] of writes) {
    it(`a write to a ${entity} changes the ETag`, async () => {
      const before = (await catalog()).headers.get('etag')!
      await new Promise((r) => setTimeout(r, 2))
      await write()
      const after = await catalog(before)
      expect(after.status).toBe(200)
      expect(after.headers.get('etag')).not.toBe(before)
      expect(after.body.data.etag).toBe(after.headers.get('etag'))
    })
  }

  it('reflects the writes in the tree', async () => {
    const data = (await catalog()).body.data
    const learn = data.surfaces.find((s: any) => s.slug === 'learn')
    expect(learn.label).toBe('Learning')
    expect(learn.groups.map((g: any) => g.slug)).toEqual(['programming', 'data'])
    // equal displayOrder: ties by slug
    expect(learn.groups[1].channels.map((c: any) => c.slug)).toEqual(['ml', 'web'])
    expect(data.platforms[1].color).toBe('#00ff00')
  })

  it('is invalidated by writes another process makes (the version comes from the database)', async () => {
    const before = (await catalog()).headers.get('etag')!
    // A second app process on the same database: this process's hooks never see the write.
    await updateInOtherProcess({ collection: 'platforms', where: { slug: { equals: 'youtube' } }, data: { label: 'YT' } })
    // Within the cross-process bound (MongoDB: its change stream's delivery), not at once.
    const after = await eventually(() => catalog(before), (r) => r.status === 200 && r.body.data.platforms[0].label === 'YT')
    expect(after.status).toBe(200)
    expect(after.body.data.platforms[0].label).toBe('YT')
  }, 120_000)

  it('is unchanged (and not rebuilt) when nothing was written', async () => {
    const a = await catalog()
    const b = await catalog()
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'))
    // The generation is this process's own token: only its stability between writes is promised.
    const version = generation(app.payload, 'taxonomy')
    expect(version).not.toBe('')
    expect(generation(app.payload, 'taxonomy')).toBe(version)
  })
})

describe('readiness', () => {
  it('/ready waits for the catalog priming, which start-up performs', async () => {
    const { notReady } = await import('../../src/startup/readiness')
    expect(notReady()).not.toContain('catalog')
    const res = await app.request('GET', '/v1/ready')
    expect(res.status).toBe(200)
  })
})
