/**
 * Cached answers kept as bytes (src/platform/serializedAnswer): a hit on the list, an item, the catalog
 * or /meta writes the kept bytes with only the per-request meta new, without serializing its
 * data again, in any coding; and a write (content, taxonomy or branding) makes the next read,
 * plain or compressed, fresh. Over real HTTP (the server server.ts runs).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { registry } from '../src/platform/metrics'
import { answerSerializer } from '../src/platform/serializedAnswer'
import { listContent } from '../src/services/content'
import { splitTerms } from '../src/services/contentQuery'
import { content, taxonomy, tokenFor } from './content/helpers'
import { testApp, type TestApp } from './support/app'
import { onMongo, ownWritesEchoed } from './support/crossProcess'
import { startHttpServer, type RunningServer } from './support/httpServer'

let app: TestApp
let server: RunningServer
let t: Awaited<ReturnType<typeof taxonomy>>
let moderator: string

/** GET over HTTP with Node's fetch, which decodes br and gzip (test/compression.test.ts checks the bytes themselves). */
async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; coding: string | null; etag: string | null; body: any }> {
  const res = await fetch(`${server.origin}${path}`, { headers: { 'Accept-Encoding': 'identity', ...headers } })
  return { status: res.status, coding: res.headers.get('content-encoding'), etag: res.headers.get('etag'), body: await res.json() }
}

beforeAll(async () => {
  app = await testApp()
  t = await taxonomy(app.payload)
  for (let i = 0; i < 12; i++) await content(app.payload, { title: `Kept answer ${i}`, group: t.programming.id, channel: t.web.id, platform: t.youtube.id })
  moderator = await tokenFor(['content.moderate', 'content.delete'])
  server = await startHttpServer()
}, 120_000)

afterAll(() => server?.close())
afterEach(() => vi.restoreAllMocks())

/** Counts serializer calls and the largest JSON.stringify output while `run` runs. */
async function serializationsDuring(run: () => Promise<void>): Promise<{ serialized: number; largestStringify: number }> {
  const serialize = vi.spyOn(answerSerializer, 'serialize')
  const stringify = JSON.stringify
  let largestStringify = 0
  vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
    const out = stringify(...args)
    largestStringify = Math.max(largestStringify, out?.length ?? 0)
    return out
  })
  try {
    await run()
  } finally {
    vi.restoreAllMocks()
  }
  return { serialized: serialize.mock.calls.length, largestStringify }
}

const READS = [
  ['the list', '/api/v1/content?limit=10'],
  ['a filtered list', '/api/v1/content?group=programming&platform=youtube&limit=5'],
  ['an item', '/api/v1/content/item-1'],
  ['the catalog', '/api/v1/catalog'],
  ['the branding record', '/api/v1/meta'],
] as const

describe('a cache hit writes kept bytes', () => {
  for (const [what, path] of READS) {
    it(`${what}: no serialization of its data on a hit, plain or compressed`, async () => {
      const first = await get(path)
      expect(first.status).toBe(200)
      const size = JSON.stringify(first.body).length
      const hits = await serializationsDuring(async () => {
        for (const headers of [{}, { 'Accept-Encoding': 'br, identity;q=0' }, { 'Accept-Encoding': 'gzip, identity;q=0' }, {}] as Record<string, string>[]) {
          const again = await get(path, headers)
          expect(again.status).toBe(200)
          expect(again.body.data).toEqual(first.body.data)
        }
      })
      expect(hits.serialized).toBe(0)
      // Only small per-request values (the request id, cache keys) are stringified: never the data.
      expect(hits.largestStringify).toBeLessThan(Math.min(300, size / 2))
    })
  }

  it('a miss does serialize (the spy sees the path it guards), once per entry whatever the coding', async () => {
    await content(app.payload, { title: 'Moves the content version' })
    await ownWritesEchoed(app.payload, ['content'])
    const miss = await serializationsDuring(async () => {
      await get('/api/v1/content?limit=10', { 'Accept-Encoding': 'br, identity;q=0' })
      await get('/api/v1/content?limit=10', { 'Accept-Encoding': 'gzip, identity;q=0' })
      await get('/api/v1/content?limit=10')
    })
    expect(miss.serialized).toBe(1)
  })

  it('a text search is kept from its second ask (one-off searches are not kept): the third ask serializes nothing', async () => {
    const path = '/api/v1/content?q=kept%20answer&limit=5'
    const first = await serializationsDuring(async () => void (await get(path)))
    const second = await serializationsDuring(async () => void (await get(path)))
    const third = await serializationsDuring(async () => {
      const again = await get(path)
      expect(again.status).toBe(200)
      expect(again.body.data.length).toBe(5)
    })
    expect([first.serialized, second.serialized, third.serialized]).toEqual([1, 1, 0])
  })

  /** A cache's hit and miss counts so far (cache_lookups_total). */
  const lookupsOf = async (cache: string) => {
    const values = (await registry.getSingleMetric('cache_lookups_total')!.get()).values
    const count = (result: string) => values.find((v) => v.labels.cache === cache && v.labels.result === result)?.value ?? 0
    return { hit: count('hit'), miss: count('miss') }
  }

  // SQLite's ranker (src/db/sqlite/search): MongoDB ranks with its text index, which keeps no word cache.
  it.skipIf(onMongo())("the ranker keeps a word's scores from its second ask, read once: a word of one search is not kept (only held a while in the bounded side cache)", async () => {
    const lookups = () => lookupsOf('search_terms')
    const before = await lookups()
    // Three different searches (no answer, page or order cache can serve one) sharing one word
    // that no other test asks ("answers": the index stems it to the titles' "answer").
    for (const other of ['alphaword', 'betaword', 'gammaword']) {
      const q = `answers ${other}`
      const { data } = await listContent(app.payload, { q, terms: splitTerms(q), period: 'all', sort: 'relevance', status: 'approved', offset: 0, limit: 5, estimate: false }, null)
      expect(data[0]!.title).toMatch(/^Kept answer/)
    }
    const after = await lookups()
    // "answers": read once (its scores held by the side cache), kept at its second ask without a
    // second read, then a hit; each other word read once.
    expect({ hit: after.hit - before.hit, miss: after.miss - before.miss }).toEqual({ hit: 2, miss: 4 })
  })

  it('what the caller may see is part of the key: a moderator hit never answers an anonymous caller', async () => {
    const hidden = await content(app.payload, { slug: 'soft-deleted', title: 'Soft deleted', isActive: false })
    expect(hidden.isActive).toBe(false)
    const staff = await get('/api/v1/content/soft-deleted', { Authorization: `Bearer ${moderator}` })
    expect(staff.status).toBe(200)
    expect((await get('/api/v1/content/soft-deleted', { Authorization: `Bearer ${moderator}` })).status).toBe(200)
    expect((await get('/api/v1/content/soft-deleted')).status).toBe(404)
    const staffList = await get('/api/v1/content?limit=100', { Authorization: `Bearer ${moderator}` })
    const anonList = await get('/api/v1/content?limit=100')
    expect(staffList.body.data.map((d: { slug: string }) => d.slug)).toContain('soft-deleted')
    expect(anonList.body.data.map((d: { slug: string }) => d.slug)).not.toContain('soft-deleted')
  })
})

describe('a write makes the next read fresh, plain and compressed', () => {
  const br = { 'Accept-Encoding': 'br, identity;q=0' }

  it('content: a new item is on the next page, an edited title in the next item answer', async () => {
    await get('/api/v1/content?limit=5', br)
    await get('/api/v1/content/item-2', br)
    const added = await content(app.payload, { title: 'Freshly added', approvedAt: new Date(Date.UTC(2030, 0, 1)).toISOString() })
    await app.payload.update({ collection: 'content', where: { slug: { equals: 'item-2' } }, data: { title: 'Edited title' }, overrideAccess: true })
    const page = await get('/api/v1/content?limit=5', br)
    expect(page.coding).toBe('br')
    expect(page.body.data[0].slug).toBe(added.slug)
    expect((await get('/api/v1/content/item-2', br)).body.data.title).toBe('Edited title')
    expect((await get('/api/v1/content/item-2')).body.data.title).toBe('Edited title')
  })

  it('taxonomy: a renamed platform slug shows in the next list and item answers (they carry taxonomy slugs)', async () => {
    const before = await get('/api/v1/content/item-3', br)
    expect(before.body.data.platform).toBe('youtube')
    await get('/api/v1/content?limit=5', br)
    await app.payload.update({ collection: 'platforms', id: t.youtube.id, data: { slug: 'video' }, overrideAccess: true })
    expect((await get('/api/v1/content/item-3', br)).body.data.platform).toBe('video')
    const page = await get('/api/v1/content?limit=100', br)
    expect(page.body.data.find((d: { slug: string }) => d.slug === 'item-3').platform).toBe('video')
  })

  it('taxonomy: the catalog answer and its ETag follow a write', async () => {
    const before = await get('/api/v1/catalog', br)
    await app.payload.update({ collection: 'channels', id: t.systems.id, data: { label: 'Systems, relabelled' }, overrideAccess: true })
    const after = await get('/api/v1/catalog', { ...br, 'If-None-Match': before.etag! })
    expect(after.status).toBe(200)
    expect(after.coding).toBe('br')
    expect(after.etag).not.toBe(before.etag)
    expect(after.body.data.etag).toBe(after.etag)
    const labels = after.body.data.surfaces.flatMap((s: any) => s.groups.flatMap((g: any) => g.channels.map((c: any) => c.label)))
    expect(labels).toContain('Systems, relabelled')
  })

  it('branding: /meta and its ETag follow a write', async () => {
    const before = await get('/api/v1/meta', br)
    await app.payload.updateGlobal({ slug: 'branding', data: { name: 'Renamed for bytes' }, overrideAccess: true })
    const after = await get('/api/v1/meta', { ...br, 'If-None-Match': before.etag! })
    expect(after.status).toBe(200)
    expect(after.etag).not.toBe(before.etag)
    expect(after.body.data.name).toBe('Renamed for bytes')
  })
})
