import { beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from '../support/app'
import { content, slugs, taxonomy, tokenFor } from './helpers'

let app: TestApp
let t: Awaited<ReturnType<typeof taxonomy>>
const ids: Record<string, string> = {}
let moderator: string
let deleter: string

const at = (day: number) => new Date(Date.UTC(2024, 4, day)).toISOString()

beforeAll(async () => {
  app = await testApp()
  t = await taxonomy(app.payload)
  const web = { group: t.programming.id, channel: t.web.id }
  const systems = { group: t.programming.id, channel: t.systems.id }
  const items: [string, Record<string, unknown>][] = [
    ['x', { ...web, tagSlugs: ['javascript', 'tutorial'], approvedAt: at(1) }],
    ['r1', { ...web, tagSlugs: [], approvedAt: at(5) }],
    ['r2', { ...systems, tagSlugs: ['javascript', 'tutorial'], approvedAt: at(3) }],
    ['r9', { ...systems, tagSlugs: ['tutorial', 'javascript'], approvedAt: at(3) }],
    ['r3', { ...systems, tagSlugs: ['javascript'], approvedAt: at(9) }],
    ['r4', { ...web, tagSlugs: ['javascript', 'tutorial'], approvedAt: at(2) }],
    ['r5', { ...web, tagSlugs: ['javascript'], approvedAt: at(2) }],
    ['r6', { ...systems, tagSlugs: ['sql'], approvedAt: at(7) }],
    ['r7', { ...web, tagSlugs: ['javascript'], status: 'pending', approvedAt: null }],
    ['r8', { ...web, tagSlugs: ['javascript', 'tutorial'], isActive: false, approvedAt: at(8) }],
    ['rejected', { title: 'Nope', status: 'rejected', approvedAt: null }],
  ]
  for (const [name, data] of items) ids[name] = (await content(app.payload, { slug: `i-${name}`, ...data })).id
  moderator = await tokenFor(['content.moderate'])
  deleter = await tokenFor(['content.delete'])
})

describe('GET /content/:slug', () => {
  it('returns the ContentDto of an approved, active item', async () => {
    const res = await app.request('GET', '/v1/content/i-x')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      id: ids.x, slug: 'i-x', group: 'programming', channel: 'web', platform: null, tagSlugs: ['javascript', 'tutorial'],
      status: 'approved', isActive: true, approvedAt: at(1),
    })
  })

  it('is 404 content.not_found for unknown or malformed slugs', async () => {
    for (const slug of ['missing', 'NOT_A_SLUG', '%20']) {
      const res = await app.request('GET', `/v1/content/${slug}`)
      expect(res.status, slug).toBe(404)
      expect(res.body.error.code).toBe('content.not_found')
    }
  })

  it('hides pending and rejected items except from content.moderate holders', async () => {
    for (const slug of ['i-r7', 'i-rejected']) {
      expect((await app.request('GET', `/v1/content/${slug}`)).status).toBe(404)
      expect((await app.request('GET', `/v1/content/${slug}`, { token: deleter })).status).toBe(404)
      const mod = await app.request('GET', `/v1/content/${slug}`, { token: moderator })
      expect(mod.status).toBe(200)
    }
  })

  it('hides inactive items except from content.delete holders', async () => {
    expect((await app.request('GET', '/v1/content/i-r8')).body.error.code).toBe('content.not_found')
    expect((await app.request('GET', '/v1/content/i-r8', { token: moderator })).status).toBe(404)
    const res = await app.request('GET', '/v1/content/i-r8', { token: deleter })
    expect(res.status).toBe(200)
    expect(res.body.data.isActive).toBe(false)
  })
})

describe('GET /content/:slug/related', () => {
  it('ranks by 2 × shared channel + shared tags, then newest, then id; excludes self, hidden and unrelated', async () => {
    const res = await app.request('GET', '/v1/content/i-x/related')
    expect(res.status).toBe(200)
    expect(res.body.pagination).toBeUndefined()
    const tie = [ids.r2!, ids.r9!].sort().reverse().map((id) => (id === ids.r2 ? 'i-r2' : 'i-r9'))
    // r4: 2+2, r5: 2+1, then score 2: r1 (newest), r2/r9 (same day: id desc), then r3: 1
    expect(slugs(res.body)).toEqual(['i-r4', 'i-r5', 'i-r1', ...tie, 'i-r3'])
  })

  it('returns at most 10 items', async () => {
    await content(app.payload, { slug: 'hub', tagSlugs: ['sql', 'talk'] })
    for (let i = 0; i < 12; i++) await content(app.payload, { slug: `spoke-${i}`, tagSlugs: ['talk'] })
    const res = await app.request('GET', '/v1/content/hub/related')
    expect(res.body.data).toHaveLength(10)
    expect(slugs(res.body)).not.toContain('hub')
  })

  it('is an empty list for an item sharing nothing, and 404 for an invisible item', async () => {
    await content(app.payload, { slug: 'loner', tagSlugs: [] })
    const res = await app.request('GET', '/v1/content/loner/related')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    const hidden = await app.request('GET', '/v1/content/i-r7/related')
    expect(hidden.status).toBe(404)
    expect(hidden.body.error.code).toBe('content.not_found')
    expect((await app.request('GET', '/v1/content/i-r7/related', { token: moderator })).status).toBe(200)
  })
})
