/**
 * The MongoDB content store's reads, seen on the wire (the real Payload and driver against the
 * scripted server): every read carries a server-side time limit, a read the server stops at
 * its limit is 503 `service.unavailable` with Retry-After, and the aggregations over every
 * holder of a tag (usage counts, related items) are sent once per public content version.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { ObjectId, type Document } from 'mongodb'

import { cursorReply, serverError, waitForLiveFeed, wireFile } from '../support/mongoWireServer'

const wire = wireFile()

let store: import('../../src/db/contentTypes').ContentStore

const ID = '65a1b2c3d4e5f60718293a4b'
const item = { id: ID, channelId: '65a1b2c3d4e5f60718293a4c', tagSlugs: ['ai'] }
const query = { statuses: ['approved' as const], includeInactive: false, sort: 'newest' as const, offset: 0, limit: 20, estimate: false }

beforeAll(async () => {
  const { engine } = await import('../../src/db/engine')
  store = engine().contentStore(wire.payload)
})

const onContents = (name: string) => wire.server.sent.filter((c) => c.name === name && c.body[name] === 'contents')

describe('MongoDB reads', () => {
  it('every read the store sends carries maxTimeMS', async () => {
    await store.listContent({ ...query, limit: 1 })
    await store.contentBySlug('s')
    await store.contentById(ID)
    await store.contentByUrlKey('https://example.com/a')
    await store.listSubmissions({ submitterId: ID, includeInactive: false, offset: 0, limit: 20 })
    await store.listTags({ offset: 0, limit: 20 })
    await store.tagBySlug('ai')
    await store.tagUsage(['ai', 'ml'])
    await store.relatedContent({ ...item, id: new ObjectId().toHexString() } as never, 10)
    const reads = wire.server.sent.filter((c) => ['find', 'aggregate', 'count'].includes(c.name) && !(c.body.pipeline as Document[] | undefined)?.[0]?.$changeStream)
    expect(reads.length).toBeGreaterThanOrEqual(10)
    for (const read of reads) expect(read.body.maxTimeMS, `${read.name} ${String(read.body[read.name])}`).toBe(5_000)
  })

  it('a read the wire.server stops at its limit is 503 service.unavailable with Retry-After, not a 500', async () => {
    wire.script = (c) => (c.name === 'find' && c.body.find === 'contents' ? serverError(50, 'MaxTimeMSExpired', [], 'operation exceeded time limit') : undefined)
    const err = (await store.listContent({ ...query, sort: 'oldest' }).then(() => null, (e: unknown) => e)) as import('../../src/platform/errors').ApiError
    expect(err?.name).toBe('ApiError')
    expect(err.status).toBe(503)
    expect(err.code).toBe('service.unavailable')
    expect(err.headers).toEqual({ 'Retry-After': '1' })
    // Any other wire.server error stays what it is.
    wire.script = (c) => (c.name === 'find' && c.body.find === 'contents' ? serverError(2, 'BadValue') : undefined)
    const other = (await store.contentBySlug('x').then(() => null, (e: unknown) => e)) as Error
    expect(other?.name).not.toBe('ApiError')
  })

  it('tag usage and related items: one aggregation per public content version, again after a public write', async () => {
    await waitForLiveFeed(wire.payload)
    const isUsage = (pipeline: Document[]) => pipeline.some((stage) => '$unwind' in stage)
    wire.script = (c) =>
      c.name === 'aggregate' && c.body.aggregate === 'contents' && isUsage(c.body.pipeline as Document[])
        ? cursorReply('wire.contents', [{ _id: 'ai', n: 7 }])
        : undefined
    const usage = await store.tagUsage(['ai', 'zz'])
    expect([...usage]).toEqual([['ai', 7], ['zz', 0]])
    await store.tagUsage(['ai', 'zz'])
    await store.relatedContent(item as never, 10)
    await store.relatedContent(item as never, 10)
    expect(onContents('aggregate')).toHaveLength(2)
    // A pending submission (its row marked) changes neither.
    const { generationsOf } = await import('../../src/db/freshness')
    generationsOf(wire.payload.db).changed(['all_content'], [new ObjectId().toHexString()])
    await store.tagUsage(['ai', 'zz'])
    await store.relatedContent(item as never, 10)
    expect(onContents('aggregate')).toHaveLength(2)
    // An approval does.
    generationsOf(wire.payload.db).changed(['content'], [new ObjectId().toHexString()])
    await store.tagUsage(['ai', 'zz'])
    await store.relatedContent(item as never, 10)
    expect(onContents('aggregate')).toHaveLength(4)
  })
  it('estimate=true on an unfiltered list: its last exact count stands in across a write for a few seconds, said so; exact lists count again', async () => {
    await waitForLiveFeed(wire.payload)
    const at = new Date('2024-05-01T10:00:00.000Z')
    const doc = { _id: new ObjectId(), slug: 'a', title: 'A', url: 'https://example.com/a', tagSlugs: [], status: 'approved', isActive: true, createdAt: at, updatedAt: at, approvedAt: at }
    let counted = 41
    wire.script = (c) => {
      if (c.name === 'find' && c.body.find === 'contents') return cursorReply('wire.contents', [doc])
      if (c.name === 'aggregate' && c.body.aggregate === 'contents') return cursorReply('wire.contents', [{ _id: 1, n: ++counted }])
      return undefined
    }
    const counts = () => onContents('aggregate').length
    const { generationsOf } = await import('../../src/db/freshness')
    const estimated = { ...query, sort: 'alpha' as const, limit: 1, estimate: true }
    const first = await store.listContent(estimated)
    expect(first).toMatchObject({ total: 42, estimated: false })
    expect(counts()).toBe(1)
    // A public write: the page is read again, its total reused (estimated), not counted.
    generationsOf(wire.payload.db).changed(['content'], [new ObjectId().toHexString()])
    const second = await store.listContent(estimated)
    expect(second).toMatchObject({ total: 42, estimated: true })
    expect(counts()).toBe(1)
    // Asked exact, or filtered: counted at this version.
    const exact = await store.listContent({ ...estimated, estimate: false })
    expect(exact).toMatchObject({ total: 43, estimated: false })
    expect(counts()).toBe(2)
    await store.listContent({ ...estimated, tags: ['ai'] })
    expect(counts()).toBe(3)
  })
})
