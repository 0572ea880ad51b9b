import { beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from '../support/app'
import { content, create, facetId, taxonomy } from './helpers'

let app: TestApp

beforeAll(async () => {
  app = await testApp()
  await taxonomy(app.payload) // javascript, sql (topic); tutorial, talk (format)
  await create(app.payload, 'tags', { slug: 'beginner', label: 'beginner', facet: await facetId(app.payload, 'level') })
  await content(app.payload, { tagSlugs: ['javascript', 'tutorial'] })
  await content(app.payload, { tagSlugs: ['javascript'] })
  await content(app.payload, { tagSlugs: ['javascript'], status: 'pending', approvedAt: null })
  await content(app.payload, { tagSlugs: ['javascript'], isActive: false })
  await content(app.payload, { tagSlugs: ['sql'], status: 'rejected', approvedAt: null })
})

describe('GET /tags', () => {
  it('lists tags sorted by label with usageCount of approved, active content', async () => {
    const res = await app.request('GET', '/v1/tags')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { slug: 'javascript', label: 'JavaScript', facet: 'topic', usageCount: 2 },
      { slug: 'sql', label: 'SQL', facet: 'topic', usageCount: 0 },
      { slug: 'talk', label: 'Talk', facet: 'format', usageCount: 0 },
      { slug: 'tutorial', label: 'Tutorial', facet: 'format', usageCount: 1 },
      { slug: 'beginner', label: 'beginner', facet: 'level', usageCount: 0 },
    ])
    expect(res.body.pagination).toEqual({ offset: 0, limit: 30, total: 5, hasMore: false })
  })

  it('paginates with offset and limit', async () => {
    const res = await app.request('GET', '/v1/tags?offset=1&limit=2')
    expect(res.body.data.map((t: any) => t.slug)).toEqual(['sql', 'talk'])
    expect(res.body.pagination).toEqual({ offset: 1, limit: 2, total: 5, hasMore: true })
    const bad = await app.request('GET', '/v1/tags?limit=500')
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('pagination.invalid')
  })

  it('filters by facet key and by a prefix of slug or label (case-insensitive)', async () => {
    const facet = await app.request('GET', '/v1/tags?facet=format')
    expect(facet.body.data.map((t: any) => t.slug)).toEqual(['talk', 'tutorial'])
    expect((await app.request('GET', '/v1/tags?q=ta')).body.data.map((t: any) => t.slug)).toEqual(['talk'])
    expect((await app.request('GET', '/v1/tags?q=JAVA')).body.data.map((t: any) => t.slug)).toEqual(['javascript'])
    expect((await app.request('GET', '/v1/tags?q=script')).body.data).toEqual([])
    expect((await app.request('GET', '/v1/tags?q=t&facet=format')).body.pagination.total).toBe(2)
    const unknown = await app.request('GET', '/v1/tags?facet=nope')
    expect(unknown.status).toBe(200)
    expect(unknown.body).toMatchObject({ data: [], pagination: { total: 0, hasMore: false } })
    expect((await app.request('GET', `/v1/tags?q=${'x'.repeat(65)}`)).body.error.code).toBe('validation.failed')
  })
})

describe('GET /tags/:slug', () => {
  it('returns the tag with usageCount', async () => {
    const res = await app.request('GET', '/v1/tags/javascript')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ slug: 'javascript', label: 'JavaScript', facet: 'topic', usageCount: 2 })
  })

  it('is 404 tag.not_found for an unknown slug', async () => {
    const res = await app.request('GET', '/v1/tags/unknown')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('tag.not_found')
  })

  it('usageCount follows content writes', async () => {
    await content(app.payload, { slug: 'more-sql', tagSlugs: ['sql'] })
    expect((await app.request('GET', '/v1/tags/sql')).body.data.usageCount).toBe(1)
    await app.payload.update({ collection: 'content', where: { slug: { equals: 'more-sql' } }, data: { tagSlugs: ['talk'] }, overrideAccess: true })
    expect((await app.request('GET', '/v1/tags/sql')).body.data.usageCount).toBe(0)
    expect((await app.request('GET', '/v1/tags/talk')).body.data.usageCount).toBe(1)
  })
})
