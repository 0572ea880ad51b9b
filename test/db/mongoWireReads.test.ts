/**
 * The MongoDB content store's reads, seen on the wire (the real Payload and driver against the
 * scripted server): every read carries a server-side time limit, a read the server stops at
 * its limit is 503 `service.unavailable` with Retry-After; a tag's usage is an index count per
 * public content version, and related items are read whole once, then carried across writes by
 * the rows written since.
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

  it('tag usage: one index count per tag and public content version, never an aggregation over its holders', async () => {
    await waitForLiveFeed(wire.payload)
    const matchOf = (c: { body: Document }) => ((c.body.pipeline as Document[])[0]!.$match ?? {}) as Document
    const isCount = (c: { name: string; body: Document }) => c.name === 'aggregate' && c.body.aggregate === 'contents' && (c.body.pipeline as Document[]).some((stage) => '$group' in stage) && typeof matchOf(c).tagSlugs === 'string'
    wire.script = (c) => (isCount(c) && matchOf(c).tagSlugs === 'usage-a' ? cursorReply('wire.contents', [{ _id: 1, n: 7 }]) : undefined)
    const counts = () => wire.server.sent.filter(isCount)
    const before = counts().length
    expect([...(await store.tagUsage(['usage-a', 'usage-z']))]).toEqual([['usage-a', 7], ['usage-z', 0]])
    const sent = counts().slice(before)
    // countDocuments: equality on the tag index's leading keys, nothing unwound, no document read.
    expect(sent.map(matchOf)).toEqual([{ tagSlugs: 'usage-a', status: 'approved', isActive: true }, { tagSlugs: 'usage-z', status: 'approved', isActive: true }])
    expect(sent.every((c) => !(c.body.pipeline as Document[]).some((stage) => '$unwind' in stage || '$project' in stage))).toBe(true)
    await store.tagUsage(['usage-z', 'usage-a'])
    expect(counts().length).toBe(before + 2)
    const { generationsOf } = await import('../../src/db/freshness')
    // A pending submission moves no public version; an approval does.
    generationsOf(wire.payload.db).changed(['all_content'], [new ObjectId().toHexString()])
    await store.tagUsage(['usage-a'])
    expect(counts().length).toBe(before + 2)
    generationsOf(wire.payload.db).changed(['content'], [new ObjectId().toHexString()])
    await store.tagUsage(['usage-a'])
    expect(counts().length).toBe(before + 3)
  })

  it('related items: read whole once, then carried across approvals by reading only the rows written since; read whole again when a shown row changes', async () => {
    await waitForLiveFeed(wire.payload)
    const { generationsOf } = await import('../../src/db/freshness')
    const generations = generationsOf(wire.payload.db)
    const subject = { id: new ObjectId().toHexString(), channelId: new ObjectId().toHexString(), tagSlugs: ['ai', 'ml'] }
    const doc = (id: ObjectId, day: number, tagSlugs: string[]) => ({ _id: id, slug: `r-${id.toHexString()}`, title: 't', url: 'https://x.test', tagSlugs, status: 'approved', isActive: true, approvedAt: new Date(Date.UTC(2024, 0, day)), createdAt: new Date(0), updatedAt: new Date(0) })
    const shown = new ObjectId()
    const approved = new ObjectId()
    let byId: Document[] = []
    const isRelated = (c: { name: string; body: Document }) => c.name === 'aggregate' && c.body.aggregate === 'contents' && (c.body.pipeline as Document[]).some((stage) => '$addFields' in stage)
    const isById = (c: { name: string; body: Document }) => c.name === 'find' && c.body.find === 'contents' && ((c.body.filter as Document)?._id as Document | undefined)?.$in !== undefined
    wire.script = (c) => (isRelated(c) ? cursorReply('wire.contents', [doc(shown, 1, ['ai'])]) : isById(c) ? cursorReply('wire.contents', byId) : undefined)
    const related = async () => (await store.relatedContent(subject as never, 10)).map((r) => r.id)
    const wholes = () => wire.server.sent.filter(isRelated).length
    const finds = () => wire.server.sent.filter(isById)

    const w0 = wholes()
    expect(await related()).toEqual([shown.toHexString()])
    expect(await related()).toEqual([shown.toHexString()])
    expect(wholes()).toBe(w0 + 1)
    // A new item sharing both tags is approved: only it is read (by id), and it ranks first.
    const f0 = finds().length
    byId = [doc(approved, 2, ['ai', 'ml'])]
    generations.changed(['content'], [approved.toHexString()])
    expect(await related()).toEqual([approved.toHexString(), shown.toHexString()])
    expect(wholes()).toBe(w0 + 1)
    expect(finds().length).toBe(f0 + 1)
    expect(((finds().at(-1)!.body.filter as Document)._id as Document).$in).toEqual([approved])
    expect(finds().at(-1)!.body.maxTimeMS).toBe(5_000)
    // Nothing written since: answered as kept.
    await related()
    expect(finds().length).toBe(f0 + 1)
    // A shown row is written (its tag removed, say): every holder is read again.
    byId = []
    generations.changed(['content'], [shown.toHexString()])
    await related()
    expect(wholes()).toBe(w0 + 2)
    // The feed cannot tell (every row changed): read whole, not carried.
    generations.changed(['content'])
    await related()
    expect(wholes()).toBe(w0 + 3)
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
