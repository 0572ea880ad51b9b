import { beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from '../support/app'
import { content, slugs, taxonomy, tokenFor } from './helpers'

let app: TestApp
const ids: Record<string, string> = {}
const HOUR = 3_600_000
const T0 = '2024-01-01T00:00:00.000Z'
const T1 = '2024-02-01T00:00:00.000Z'
const T2 = '2024-03-01T00:00:00.000Z'
let moderator: string
let deleter: string
let member: string

const get = (path: string, token?: string) => app.request('GET', `/v1/content${path}`, { token })
/** Expected order of tied items: by id, as the service's tiebreak. */
const byId = (dir: 1 | -1, ...names: string[]) =>
  [...names].sort((a, b) => (ids[a]! < ids[b]! ? -dir : dir)).map((n) => `s-${n}`)

beforeAll(async () => {
  app = await testApp()
  const t = await taxonomy(app.payload)
  const ago = (h: number) => new Date(Date.now() - h * HOUR).toISOString()
  const items: [string, Record<string, unknown>][] = [
    ['a', { title: 'Zebra typescript guide', description: 'Runs on kubernetes', approvedAt: T1, group: t.programming.id, channel: t.web.id, platform: t.youtube.id, tagSlugs: ['javascript', 'tutorial'] }],
    ['b', { title: 'apple database design', approvedAt: T2, group: t.data.id, channel: t.dataWeb.id, platform: t.blog.id, tagSlugs: ['sql'] }],
    ['c', { title: 'Mango typescript talk', approvedAt: T2, group: t.programming.id, channel: t.systems.id, platform: t.podcast.id, tagSlugs: ['talk'] }],
    ['d', { title: 'Mango typescript talk', approvedAt: T0, group: t.progDiscover.id, platform: t.youtube.id, tagSlugs: ['javascript'] }],
    ['fresh', { title: 'Fresh go news', approvedAt: ago(2), platform: t.blog.id, tagSlugs: ['tutorial', 'sql'] }],
    ['week', { title: 'Week old', approvedAt: ago(24 * 3) }],
    ['month', { title: 'Month old', approvedAt: ago(24 * 20) }],
    ['quarter', { title: 'Quarter old', approvedAt: ago(24 * 60) }],
    ['pending', { title: 'Pending go item', status: 'pending', approvedAt: null, group: t.programming.id }],
    ['rejected', { title: 'Rejected item', status: 'rejected', approvedAt: null, rejectionReason: 'spam' }],
    ['inactive', { title: 'Inactive item', isActive: false, approvedAt: T1 }],
  ]
  for (const [name, data] of items) ids[name] = (await content(app.payload, { slug: `s-${name}`, ...data })).id
  moderator = await tokenFor(['content.moderate'])
  deleter = await tokenFor(['content.delete'])
  member = await tokenFor(['content.submit'])
})

const NEWEST_VISIBLE = () => ['s-fresh', 's-week', 's-month', 's-quarter', ...byId(-1, 'b', 'c'), 's-a', 's-d']

describe('GET /content sorts', () => {
  it('defaults to newest: approvedAt desc, ties by id desc, only approved and active', async () => {
    const res = await get('')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(slugs(res.body)).toEqual(NEWEST_VISIBLE())
    expect(res.body.pagination).toEqual({ offset: 0, limit: 30, total: 8, hasMore: false })
    expect((await get('?sort=newest')).body.data).toEqual(res.body.data)
  })

  it('oldest is approvedAt asc with ties by id asc (the exact reverse)', async () => {
    const res = await get('?sort=oldest')
    expect(slugs(res.body)).toEqual(['s-d', 's-a', ...byId(1, 'b', 'c'), 's-quarter', 's-month', 's-week', 's-fresh'])
  })

  it('alpha is title asc with equal titles by id asc', async () => {
    const res = await get('?sort=alpha')
    expect(slugs(res.body)).toEqual([
      's-fresh', ...byId(1, 'c', 'd'), 's-month', 's-quarter', 's-week', 's-a', 's-b',
    ])
  })

  it('reserved sorts are 400 sort.unsupported; unknown sorts are validation.failed', async () => {
    for (const sort of ['trending', 'usage']) {
      const res = await get(`?sort=${sort}`)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('sort.unsupported')
    }
    const bad = await get('?sort=random')
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({ code: 'validation.failed', details: [{ field: 'sort', constraint: 'enum', value: 'random' }] })
  })
})

describe('GET /content DTO', () => {
  it('carries every ContentDto field with slugs for group, channel and platform', async () => {
    const res = await get('?tags=talk')
    expect(res.body.data).toHaveLength(1)
    const dto = res.body.data[0]
    expect(Object.keys(dto).sort()).toEqual(
      ['id', 'slug', 'title', 'description', 'url', 'tagSlugs', 'group', 'channel', 'platform', 'status', 'isActive',
        'submittedBy', 'approvedAt', 'rejectionReason', 'createdAt', 'updatedAt', 'thumbnailUrl'].sort(),
    )
    expect(dto).toMatchObject({
      id: ids.c, slug: 's-c', title: 'Mango typescript talk', tagSlugs: ['talk'], group: 'programming', channel: 'systems',
      platform: 'podcast', status: 'approved', isActive: true, approvedAt: T2, rejectionReason: null, thumbnailUrl: null,
      submittedBy: null, description: null,
    })
    expect(dto.id).toMatch(/^[0-9a-f]{24}$/)
    expect(dto.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })
})

describe('GET /content filters', () => {
  it('tags are OR within the list; empty tags are ignored', async () => {
    expect(slugs((await get('?tags=javascript')).body)).toEqual(['s-a', 's-d'])
    expect(slugs((await get('?tags=javascript,sql')).body)).toEqual(['s-fresh', 's-b', 's-a', 's-d'])
    expect((await get('?tags=')).body.pagination.total).toBe(8)
    expect((await get('?tags=unknown-tag')).body).toMatchObject({ data: [], pagination: { total: 0, hasMore: false } })
  })

  it('dimensions are ANDed', async () => {
    expect(slugs((await get('?tags=sql&platform=blog')).body)).toEqual(['s-fresh', 's-b'])
    expect(slugs((await get('?tags=javascript&platform=blog')).body)).toEqual([])
    expect(slugs((await get('?tags=javascript,talk&group=programming&platform=youtube')).body)).toEqual(['s-a', 's-d'])
    expect(slugs((await get('?tags=tutorial&period=24h')).body)).toEqual(['s-fresh'])
  })

  it('group matches that slug in every surface; channel narrows within the group', async () => {
    expect(slugs((await get('?group=programming')).body)).toEqual(['s-c', 's-a', 's-d'])
    expect(slugs((await get('?group=programming&channel=web')).body)).toEqual(['s-a'])
    expect(slugs((await get('?group=data&channel=web')).body)).toEqual(['s-b'])
    expect(slugs((await get('?group=data&channel=systems')).body)).toEqual([])
    const unknown = await get('?group=nowhere')
    expect(unknown.status).toBe(200)
    expect(unknown.body).toMatchObject({ data: [], pagination: { offset: 0, limit: 30, total: 0, hasMore: false } })
  })

  it('channel without group is 400 validation.failed requires_group', async () => {
    const res = await get('?channel=web')
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation.failed')
    expect(res.body.error.details).toEqual([{ field: 'channel', constraint: 'requires_group' }])
  })

  it('platform accepts one slug or a comma list (OR)', async () => {
    expect(slugs((await get('?platform=youtube')).body)).toEqual(['s-a', 's-d'])
    expect(slugs((await get('?platform=youtube,podcast')).body)).toEqual(['s-c', 's-a', 's-d'])
  })

  it('malformed slugs in filters are validation.failed pattern', async () => {
    const res = await get('?group=Bad_Slug&tags=ok,NOPE')
    expect(res.status).toBe(400)
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'tags', constraint: 'pattern', value: 'NOPE' },
        { field: 'group', constraint: 'pattern', value: 'Bad_Slug' },
      ]),
    )
  })

  it('period windows over approvedAt', async () => {
    expect(slugs((await get('?period=24h')).body)).toEqual(['s-fresh'])
    expect(slugs((await get('?period=7d')).body)).toEqual(['s-fresh', 's-week'])
    expect(slugs((await get('?period=30d')).body)).toEqual(['s-fresh', 's-week', 's-month'])
    expect(slugs((await get('?period=90d')).body)).toEqual(['s-fresh', 's-week', 's-month', 's-quarter'])
    expect((await get('?period=all')).body.pagination.total).toBe(8)
    const bad = await get('?period=1y')
    expect(bad.body.error).toMatchObject({ code: 'validation.failed', details: [{ field: 'period', constraint: 'enum', value: '1y' }] })
  })
})

describe('GET /content text search', () => {
  it('scores title and description through the text index, with stemming', async () => {
    expect(slugs((await get('?q=typescript&sort=newest')).body)).toEqual(['s-c', 's-a', 's-d'])
    expect(slugs((await get('?q=kubernetes')).body)).toEqual(['s-a'])
    expect(slugs((await get('?q=guides')).body)).toEqual(['s-a'])
    const ranked = await get('?q=typescript')
    expect(new Set(slugs(ranked.body))).toEqual(new Set(['s-a', 's-c', 's-d']))
    expect(ranked.body.pagination.total).toBe(3)
  })

  it('words under 3 characters fall back to a title pattern match (ANDed with the rest)', async () => {
    expect(slugs((await get('?q=go&sort=newest')).body)).toEqual(['s-fresh', 's-c', 's-d'])
    expect(slugs((await get('?q=go%20typescript&sort=newest')).body)).toEqual(['s-c', 's-d'])
    // pending content is never in the public search
    expect(slugs((await get('?q=pending')).body)).toEqual([])
  })

  it('q rules: 1 character is 400 query.too_short; over 200 is validation.failed; empty is no search', async () => {
    const short = await get('?q=a')
    expect(short.status).toBe(400)
    expect(short.body.error.code).toBe('query.too_short')
    const long = await get(`?q=${'x'.repeat(201)}`)
    expect(long.status).toBe(400)
    expect(long.body.error.code).toBe('validation.failed')
    expect(long.body.error.details[0]).toMatchObject({ field: 'q', constraint: 'max' })
    expect((await get(`?q=${'x'.repeat(200)}`)).status).toBe(200)
    expect((await get('?q=')).body.pagination.total).toBe(8)
    const none = await get('?q=!!')
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0 } })
  })

  it('pages of a search concatenate to the whole ranked list, and a new match shows at once', async () => {
    const whole = slugs((await get('?q=typescript')).body)
    const pages = [...slugs((await get('?q=typescript&limit=2')).body), ...slugs((await get('?q=typescript&limit=2&offset=2')).body)]
    expect(pages).toEqual(whole)
    await content(app.payload, { slug: 's-ts-late', title: 'Late typescript notes', approvedAt: T0 })
    const after = await get('?q=typescript')
    expect(slugs(after.body)).toContain('s-ts-late')
    expect(after.body.pagination.total).toBe(whole.length + 1)
    await app.payload.update({ collection: 'content', where: { slug: { equals: 's-ts-late' } }, data: { title: 'Late notes' }, overrideAccess: true })
    expect(slugs((await get('?q=typescript')).body)).toEqual(whole)
    // test clean-up only: the API never hard-deletes
    await app.payload.delete({ collection: 'content', where: { slug: { equals: 's-ts-late' } }, overrideAccess: true })
    expect((await get('?q=typescript')).body.pagination.total).toBe(whole.length)
  })

  it('an empty result is 200 with data [] and total 0', async () => {
    const res = await get('?q=nonexistentword')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, data: [], pagination: { offset: 0, limit: 30, total: 0, hasMore: false } })
  })
})

describe('GET /content pagination', () => {
  it('hasMore at the edges', async () => {
    const cases: [string, number, boolean][] = [
      ['?limit=3', 3, true],
      ['?limit=3&offset=4', 3, true],
      ['?limit=3&offset=5', 3, false],
      ['?limit=3&offset=6', 2, false],
      ['?limit=8', 8, false],
      ['?limit=7', 7, true],
      ['?offset=8', 0, false],
    ]
    for (const [qs, count, hasMore] of cases) {
      const res = await get(qs)
      expect(res.body.data, qs).toHaveLength(count)
      expect(res.body.pagination.total, qs).toBe(8)
      expect(res.body.pagination.hasMore, qs).toBe(hasMore)
    }
    const page = await get('?limit=3&offset=4')
    expect(slugs(page.body)).toEqual(NEWEST_VISIBLE().slice(4, 7))
    expect(page.body.pagination).toEqual({ offset: 4, limit: 3, total: 8, hasMore: true })
  })

  it('offset 0..10000 and limit 1..200, else 400 pagination.invalid', async () => {
    for (const qs of ['?offset=-1', '?offset=10001', '?offset=abc', '?limit=201', '?limit=-1', '?limit=1.5', '?limit=']) {
      const res = await get(qs)
      expect(res.status, qs).toBe(400)
      expect(res.body.error.code, qs).toBe('pagination.invalid')
    }
    const deep = await get('?offset=10000&limit=200')
    expect(deep.status).toBe(200)
    expect(deep.body.pagination).toEqual({ offset: 10000, limit: 200, total: 8, hasMore: false })
  })

  it('limit=0 is a count: data [] with the full total', async () => {
    const res = await get('?limit=0&tags=javascript,sql')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.pagination).toEqual({ offset: 0, limit: 0, total: 4, hasMore: true })
  })

  it('estimate=true never counts pending, rejected or inactive items, and no page past the end has more (any engine)', async () => {
    // The collection holds 11 items, 8 of them public: a whole-collection count would say 11.
    const res = await get('?estimate=true&limit=2')
    expect(res.status).toBe(200)
    expect(res.body.pagination).toEqual({ offset: 0, limit: 2, total: 8, hasMore: true })
    const past = await get('?estimate=true&offset=8&limit=2')
    expect(past.body.data).toEqual([])
    expect(past.body.pagination).toMatchObject({ offset: 8, limit: 2, hasMore: false })
  })

  it('estimate takes true or false; other values are validation.failed', async () => {
    expect((await get('?estimate=maybe')).body.error.code).toBe('validation.failed')
  })
})

describe('GET /content visibility', () => {
  it('status other than approved needs content.moderate: 403 for anonymous and members', async () => {
    for (const status of ['pending', 'rejected', 'all']) {
      const anon = await get(`?status=${status}`)
      expect(anon.status).toBe(403)
      expect(anon.body.error.code).toBe('auth.forbidden')
      expect((await get(`?status=${status}`, member)).status).toBe(403)
      expect((await get(`?status=${status}`, deleter)).status).toBe(403)
    }
    expect((await get('?status=approved')).status).toBe(200)
    expect((await get('?status=bogus', moderator)).body.error.code).toBe('validation.failed')
  })

  it('moderators see pending, rejected and all', async () => {
    expect(slugs((await get('?status=pending', moderator)).body)).toEqual(['s-pending'])
    expect(slugs((await get('?status=rejected', moderator)).body)).toEqual(['s-rejected'])
    const all = await get('?status=all', moderator)
    expect(all.body.pagination.total).toBe(10)
    // pending/rejected have no approvedAt: they sort last under newest
    expect(slugs(all.body).slice(0, 8)).toEqual(NEWEST_VISIBLE())
    expect(all.body.data.find((d: any) => d.slug === 's-rejected').rejectionReason).toBe('spam')
  })

  it('inactive items are hidden except to content.delete holders', async () => {
    expect(slugs((await get('', moderator)).body)).not.toContain('s-inactive')
    const res = await get('', deleter)
    expect(res.body.pagination.total).toBe(9)
    expect(res.body.data.find((d: any) => d.slug === 's-inactive').isActive).toBe(false)
  })

  it('an invalid bearer token is 401 auth.invalid_token even on the public list', async () => {
    const res = await app.request('GET', '/v1/content', { headers: { Authorization: 'Bearer not-a-jwt' } })
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('auth.invalid_token')
  })

  it('a new write is visible at once (cached totals are invalidated)', async () => {
    const before = (await get('?limit=0')).body.pagination.total
    await content(app.payload, { slug: 's-late', title: 'Late arrival', approvedAt: T0 })
    const after = await get('?limit=0')
    expect(after.body.pagination.total).toBe(before + 1)
    await app.payload.update({ collection: 'content', where: { slug: { equals: 's-late' } }, data: { isActive: false }, overrideAccess: true })
    expect((await get('?limit=0')).body.pagination.total).toBe(before)
  })
})
