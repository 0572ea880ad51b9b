import type { CollectionSlug, Where } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { connection, sqliteFileOf } from '../../src/db/sqlite/connection'
import { testApp, type TestApp } from '../support/app'
import { engine } from '../../src/db/engine'
import { demoResources } from '../../src/seed/demoResources'
import { DEMO_MEMBERS, DEMO_SURFACES } from '../../src/seed/demoTaxonomy'
import { seedContent, seedDemo, seedDemoIfEmpty, seedTags } from '../../src/seed/seed'

let app: TestApp
let demoCount = 0
let demoTags = 0

/** Which platform a URL's host belongs to, independently of the seed's own tables. */
function platformOfUrl(url: string): string {
  const host = new URL(url).hostname
  if (host === 'www.youtube.com' || host === 'youtu.be') return 'youtube'
  if (host === 'github.com') return 'github'
  if (host === 'podcasts.apple.com' || host === 'open.spotify.com') return 'podcast'
  if (host === 'arxiv.org') return 'paper'
  if (['www.coursera.org', 'www.edx.org', 'www.khanacademy.org'].includes(host)) return 'course'
  if (/^(developer\.mozilla\.org|doc\.rust-lang\.org|go\.dev|docs\.python\.org|www\.typescriptlang\.org|www\.postgresql\.org|www\.sqlite\.org|scikit-learn\.org|huggingface\.co|vega\.github\.io|www\.w3\.org|m3\.material\.io|help\.figma\.com|fonts\.google\.com)$/.test(host)) return 'docs'
  return 'blog'
}
const onMongo = getConfig().database.engine !== 'sqlite'
const sqliteDb = () => connection(sqliteFileOf(getConfig().database.uri))
/** Rows of the two text indexes together: public rows in raw_content_fts, the others in raw_content_fts_hidden. */
const ftsRows = async () =>
  Number((sqliteDb().prepare('SELECT (SELECT count(*) FROM raw_content_fts) + (SELECT count(*) FROM raw_content_fts_hidden) AS n').get() as { n: number }).n)
const count = async (collection: CollectionSlug, where: Where = {}) =>
  (await app.payload.count({ collection, where, overrideAccess: true })).totalDocs

beforeAll(async () => {
  app = await testApp()
})

describe('seeding', () => {
  it('the demo seed loads a real-looking taxonomy, demo members and 300+ curated items in all three states, once', async () => {
    expect(await seedDemoIfEmpty(app.payload)).toBe(true)
    expect(await count('surfaces')).toBe(DEMO_SURFACES.length)
    expect(DEMO_SURFACES.length).toBeGreaterThanOrEqual(2)
    expect(await count('groups')).toBeGreaterThanOrEqual(4)
    expect(await count('channels')).toBeGreaterThanOrEqual(8)
    expect(await count('platforms')).toBeGreaterThanOrEqual(3)
    expect(await count('tags')).toBeGreaterThanOrEqual(20)
    demoTags = await count('tags')
    const tags = await app.payload.find({ collection: 'tags', pagination: false, depth: 1, overrideAccess: true })
    expect(new Set(tags.docs.map((t: any) => t.facet.key))).toEqual(new Set(['topic', 'format', 'level', 'source-type', 'unclassified']))

    demoCount = await count('content')
    expect(demoCount).toBeGreaterThanOrEqual(300)
    expect(demoCount).toBe(demoResources().length)
    const approved = await count('content', { status: { equals: 'approved' } })
    const pending = await count('content', { status: { equals: 'pending' } })
    const rejected = await count('content', { status: { equals: 'rejected' } })
    expect(approved).toBeGreaterThan(demoCount / 2)
    expect(pending).toBeGreaterThan(10)
    expect(rejected).toBeGreaterThan(10)
    expect(approved + pending + rejected).toBe(demoCount)

    const all = (await app.payload.find({ collection: 'content', pagination: false, depth: 1, overrideAccess: true })).docs as any[]
    // Several submitters, each a demo member (role member), none of them the admin.
    const submitters = new Map<string, number>()
    for (const item of all) submitters.set(item.submittedBy.email, (submitters.get(item.submittedBy.email) ?? 0) + 1)
    expect([...submitters.keys()].sort()).toEqual(DEMO_MEMBERS.map((m) => m.email).sort())
    for (const n of submitters.values()) expect(n).toBeGreaterThan(10)
    const member = await app.payload.findByID({ collection: 'users', id: all[0].submittedBy.id, depth: 1, overrideAccess: true })
    expect((member.roles as any[]).map((r) => r.name)).toEqual(['member'])

    // Every rejection has its reason; no other item has one.
    for (const item of all) {
      expect(typeof item.rejectionReason === 'string' && item.rejectionReason.length > 5).toBe(item.status === 'rejected')
      expect(item.approvedAt !== null && item.approvedAt !== undefined).toBe(item.status === 'approved')
    }
    // Real-looking: unique titles and URLs, no placeholder domain, no repeated description opening per channel.
    expect(new Set(all.map((i) => i.title)).size).toBe(all.length)
    expect(new Set(all.map((i) => i.url)).size).toBe(all.length)
    for (const item of all) expect(new URL(item.url).hostname).not.toMatch(/example\.(com|org)$/)
    // Each URL's host says which platform it is on.
    for (const item of all) expect(`${item.url} → ${item.platform.slug}`).toBe(`${item.url} → ${platformOfUrl(item.url)}`)
    // Every platform, channel and facet is used; each item's channel belongs to its group.
    expect(new Set(all.map((i) => i.platform.slug)).size).toBe(await count('platforms'))
    expect(new Set(all.map((i) => i.channel.id)).size).toBe(await count('channels'))
    for (const item of all) expect(String(item.channel.group)).toBe(String(item.group.id))
    const tagFacet = new Map(tags.docs.map((t: any) => [t.slug, t.facet.key]))
    for (const item of all) {
      const facets = new Set(item.tagSlugs.map((s: string) => tagFacet.get(s)))
      expect(facets.has(undefined)).toBe(false)
      for (const f of ['topic', 'format', 'level', 'source-type']) expect(facets.has(f)).toBe(true)
    }

    // The audit trail holds each decision, as the dashboard and the audit log read it.
    expect(await count('moderation-events', { action: { equals: 'approve' } })).toBe(approved)
    const rejections = await app.payload.find({ collection: 'moderation-events', where: { action: { equals: 'reject' } }, pagination: false, depth: 0, overrideAccess: true })
    expect(rejections.docs).toHaveLength(rejected)
    const byId = new Map(all.map((i) => [String(i.id), i]))
    for (const e of rejections.docs as any[]) {
      expect(byId.get(e.targetId)).toMatchObject({ slug: e.targetSlug, status: 'rejected', rejectionReason: e.reason })
      expect(e).toMatchObject({ stateBefore: 'pending', stateAfter: 'rejected', targetCollection: 'content' })
    }

    // Search and filters read like a real deployment.
    const search = await app.request('GET', '/v1/content?q=rust&limit=50')
    expect(search.body.pagination.total).toBeGreaterThanOrEqual(4)
    for (const item of search.body.data) expect(`${item.title} ${item.description}`.toLowerCase()).toContain('rust')
    const videos = await app.request('GET', '/v1/content?platform=youtube&limit=200')
    expect(videos.body.pagination.total).toBeGreaterThan(20)
    for (const item of videos.body.data) expect(new URL(item.url).hostname).toBe('www.youtube.com')

    expect(await seedDemoIfEmpty(app.payload)).toBe(false)
    expect(await count('content')).toBe(demoCount)
  })

  it('bulk-inserted items are listed, searchable (FTS kept in sync) and filterable by tag', async () => {
    const tags = await seedTags(app.payload, 10)
    expect(await count('tags')).toBe(demoTags + 10)
    const before = (await app.request('GET', '/v1/content?limit=0')).body.pagination.total
    expect(await seedContent(app.payload, 500, { tags, seed: 3 })).toBe(500)
    expect(await count('content')).toBe(demoCount + 500)
    const after = await app.request('GET', '/v1/content?limit=0')
    expect(after.body.pagination.total).toBe(before + 500)
    const search = await app.request('GET', '/v1/content?q=typescript&limit=5')
    expect(search.body.pagination.total).toBeGreaterThan(0)
    for (const item of search.body.data) expect(`${item.title} ${item.description}`.toLowerCase()).toContain('typescript')
    const byTag = await app.request(`GET`, `/v1/content?tags=${tags[0]}&limit=200`)
    expect(byTag.body.pagination.total).toBeGreaterThan(0)
    for (const item of byTag.body.data) expect(item.tagSlugs).toContain(tags[0])
    const tag = await app.request('GET', `/v1/tags/${tags[0]}`)
    expect(tag.body.data.usageCount).toBe(byTag.body.pagination.total)
  })

  // SQLite only: its text index is a separate FTS5 table kept in sync by triggers; MongoDB's
  // text index is part of the collection itself, so there is nothing to drift or count.
  it.skipIf(onMongo)('the SQLite FTS5 tables hold every row, each in one', async () => {
    expect(await ftsRows()).toBe(demoCount + 500)
  })

  it('a second demo seed adds content but reuses the taxonomy', async () => {
    await seedDemo(app.payload)
    expect(await count('surfaces')).toBe(DEMO_SURFACES.length)
    expect(await count('groups')).toBe(4)
    expect(await count('users', { email: { like: 'demo.example' } })).toBe(DEMO_MEMBERS.length)
    expect(await engine().contentStore(app.payload).countContent()).toBe(2 * demoCount + 500)
  })

  it('the start-up preparation is idempotent', async () => {
    await engine().contentStore(app.payload).prepare()
    await engine().contentStore(app.payload).prepare()
    expect(await engine().contentStore(app.payload).countContent()).toBe(2 * demoCount + 500)
    expect((await app.request('GET', '/v1/content?q=typescript&limit=1')).body.pagination.total).toBeGreaterThan(0)
  })

  // SQLite only (see above): the FTS5 table can drift from the content table; start-up rebuilds it.
  it.skipIf(onMongo)('the start-up preparation rebuilds a drifted SQLite FTS5 table', async () => {
    sqliteDb().exec('DELETE FROM raw_content_fts WHERE rowid IN (SELECT rowid FROM raw_content_fts LIMIT 5)')
    expect(await ftsRows()).toBe(2 * demoCount + 495)
    await engine().contentStore(app.payload).prepare()
    expect(await ftsRows()).toBe(2 * demoCount + 500)
  })
})
