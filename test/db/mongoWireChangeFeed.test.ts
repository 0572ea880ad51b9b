/**
 * Freshness on MongoDB, seen on the wire: the change feed (src/db/mongo/changeFeed.ts) opens
 * one change stream over the cached collections, moves only the domain an event touches, goes
 * blind when the stream fails for good, and comes back resumed after the last event it saw
 * (or from now when the server no longer has that point). The real Payload and driver against
 * the scripted wire server, which answers change streams as a server does.
 */
import type { Document } from 'mongodb'
import type { Payload } from 'payload'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import type { FreshnessSink } from '../../src/db/freshness'
import type { Domain } from '../../src/db/freshness'
import { payloadOnWire, type Script, serverError, type WireServer } from '../support/mongoWireServer'

let server: WireServer
let payload: Payload
let feed: typeof import('../../src/db/mongo/changeFeed')
let stop: (() => void) | undefined

/** What a test scripts beyond the server's own answers (reset before each test). */
let script: Script = () => undefined

beforeAll(async () => {
  ;({ server, payload } = await payloadOnWire((c, sent) => script(c, sent)))
  feed = await import('../../src/db/mongo/changeFeed')
})

afterAll(async () => {
  await payload?.destroy()
  await server?.close()
})

beforeEach(() => {
  server.sent.length = 0
  script = () => undefined
})

afterEach(() => {
  stop?.()
  stop = undefined
})

/** A sink that records what the feed reports. */
function sink() {
  const seen = { changed: [] as Domain[][], rows: [] as (string[] | undefined)[], lost: 0, restored: 0 }
  const to: FreshnessSink = {
    changed: (domains, rows) => {
      seen.changed.push([...domains])
      seen.rows.push(rows && [...rows])
    },
    lost: () => void (seen.lost += 1),
    restored: () => void (seen.restored += 1),
  }
  return { seen, to }
}

async function until(condition: () => boolean, what: string, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const streams = () => server.sent.filter((c) => c.name === 'aggregate' && (c.body.pipeline as Document[])[0]?.$changeStream)

describe('the change feed on the wire', () => {
  it('opens one change stream over the cached collections, and is live once the server answers', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const [open] = streams()
    const pipeline = open!.body.pipeline as Document[]
    expect(open!.body.aggregate).toBe(1)
    // A content row's state before its change comes with its event (where the collection keeps pre-images).
    expect(pipeline[0]).toEqual({ $changeStream: { fullDocumentBeforeChange: 'whenAvailable' } })
    const names = (pipeline[1]!.$match.$or as Document[])[0]!['ns.coll'].$in as string[]
    const model = (slug: string) => payload.db.collections[slug]!.collection.collectionName
    // Users and roles too: who may write is kept per process under the access generation.
    for (const slug of ['content', 'surfaces', 'groups', 'channels', 'platforms', 'tags', 'facets', 'media', 'users', 'roles']) expect(names).toContain(model(slug))
    expect(names).toContain(payload.db.globals.collection.collectionName)
    // Not the service's own bookkeeping: nothing a cache shows.
    expect(names).not.toContain(model('refresh-tokens'))
    expect(seen.lost).toBe(0)
  })

  it('moves only the domain an event touches; a new row the public does not see only all_content; an upload moves branding on update, not on insert; a drop moves all', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const ns = (slug: string) => ({ db: 'wire', coll: payload.db.collections[slug]!.collection.collectionName })
    server.changes.push({ operationType: 'update', ns: ns('content') })
    server.changes.push({ operationType: 'insert', ns: ns('content'), fullDocument: { status: 'pending', isActive: true } })
    server.changes.push({ operationType: 'insert', ns: ns('content'), fullDocument: { status: 'approved', isActive: true } })
    server.changes.push({ operationType: 'insert', ns: ns('tags') })
    server.changes.push({ operationType: 'insert', ns: ns('media') })
    server.changes.push({ operationType: 'delete', ns: ns('media') })
    server.changes.push({ operationType: 'replace', ns: { db: 'wire', coll: payload.db.globals.collection.collectionName } })
    server.changes.push({ operationType: 'update', ns: ns('users') })
    server.changes.push({ operationType: 'update', ns: ns('roles') })
    server.changes.push({ operationType: 'drop', ns: ns('groups') })
    await until(() => seen.changed.length === 9, 'nine reports')
    expect(seen.changed).toEqual([
      ['content'],
      ['all_content'],
      ['content'],
      ['taxonomy'],
      ['branding'],
      ['branding'],
      ['access'],
      ['access'],
      ['content', 'all_content', 'taxonomy', 'branding', 'access'],
    ])
    // The stream carries of a document only its id, what says whether the public sees it (before and after), and the names of the fields an update set.
    const pipeline = streams().at(-1)!.body.pipeline as Document[]
    expect(pipeline.at(-1)).toEqual({
      $project: {
        _id: 1,
        operationType: 1,
        ns: 1,
        documentKey: 1,
        'fullDocument.status': 1,
        'fullDocument.isActive': 1,
        'fullDocumentBeforeChange.status': 1,
        'fullDocumentBeforeChange.isActive': 1,
        'updateDescription.visibility': { status: '$updateDescription.updatedFields.status', isActive: '$updateDescription.updatedFields.isActive' },
        'updateDescription.updatedFields': { $map: { input: { $objectToArray: { $ifNull: ['$updateDescription.updatedFields', {}] } }, in: '$$this.k' } },
        'updateDescription.removedFields': 1,
        'updateDescription.truncatedArrays': 1,
      },
    })
  })

  it('a content update that sets only fields no list reads (a thumbnail) moves all_content and marks its row; one that sets a listed field moves content', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const ns = { db: 'wire', coll: payload.db.collections.content!.collection.collectionName }
    const documentKey = (id: string) => ({ _id: id })
    server.changes.push({ operationType: 'update', ns, documentKey: documentKey('a1'), updateDescription: { updatedFields: ['thumbnail', 'thumbnailUrl', 'updatedAt'], removedFields: [] } })
    server.changes.push({ operationType: 'update', ns, documentKey: documentKey('a2'), updateDescription: { updatedFields: ['slug', 'updatedAt'], removedFields: ['rejectionReason'] } })
    server.changes.push({ operationType: 'update', ns, documentKey: documentKey('a3'), updateDescription: { updatedFields: ['title', 'updatedAt'], removedFields: [] } })
    server.changes.push({ operationType: 'update', ns, documentKey: documentKey('a4'), updateDescription: { updatedFields: ['updatedAt'], removedFields: ['group'] } })
    server.changes.push({ operationType: 'delete', ns, documentKey: documentKey('a5') })
    server.changes.push({ operationType: 'update', ns: { db: 'wire', coll: payload.db.collections.tags!.collection.collectionName }, documentKey: documentKey('t1') })
    await until(() => seen.changed.length === 6, 'six reports')
    expect(seen.changed).toEqual([['all_content'], ['all_content'], ['content'], ['content'], ['content'], ['taxonomy']])
    expect(seen.rows).toEqual([['a1'], ['a2'], ['a3'], ['a4'], ['a5'], undefined])
  })

  it('a stream that fails for good goes blind, then reopens resumed after the last event seen', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    // The event's resume token is handed out after every token that exists now.
    const tokensBefore = server.changes.tokens.length
    server.changes.push({ operationType: 'update', ns: { db: 'wire', coll: payload.db.collections.content!.collection.collectionName } })
    await until(() => seen.changed.length === 1, 'the event')
    // Not resumable (no ResumableChangeStreamError label): the driver gives the stream up.
    server.changes.fail(serverError(280, 'ChangeStreamFatalError'))
    await until(() => seen.lost === 1, 'the feed to go blind')
    await until(() => seen.restored === 2, 'the feed to reopen')
    const reopened = streams().at(-1)!
    const resumeAfter = ((reopened.body.pipeline as Document[])[0]!.$changeStream as Document).resumeAfter as Document | undefined
    // Resumed after the last event it had seen, or a later point of the server's (a post-batch token).
    expect(resumeAfter?._data).toBeDefined()
    expect(server.changes.tokens.indexOf(String(resumeAfter!._data))).toBeGreaterThanOrEqual(tokensBefore)
  })

  it('a stream that keeps failing on one resume token (not history lost: 280) starts from now after a few, and says so', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    server.changes.push({ operationType: 'update', ns: { db: 'wire', coll: payload.db.collections.content!.collection.collectionName } })
    await until(() => seen.changed.length === 1, 'the event')
    // From here every stream opened after that token is refused by the server.
    script = (c) => {
      const stage = c.name === 'aggregate' ? ((c.body.pipeline as Document[])[0]?.$changeStream as Document | undefined) : undefined
      return stage?.resumeAfter ? serverError(280, 'ChangeStreamFatalError') : undefined
    }
    server.changes.fail(serverError(280, 'ChangeStreamFatalError'))
    await until(() => seen.restored === 2, 'the feed to start again from now', 10_000)
    const opened = streams().map((c) => ((c.body.pipeline as Document[])[0]!.$changeStream as Document).resumeAfter !== undefined)
    // The first stream, then MAX_FAILURES_ON_TOKEN - 1 refused resumes, then one from now.
    expect(opened.filter(Boolean).length).toBe(feed.MAX_FAILURES_ON_TOKEN - 1)
    expect(opened.at(-1)).toBe(false)
  })

  it("a tag rename's run begun or ended by another process moves taxonomy here (its slugs flip); its lease's heartbeats do not", async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const match = ((streams().at(-1)!.body.pipeline as Document[]).find((stage) => stage.$match)!.$match as Document).$or as Document[]
    expect((match[0]!['ns.coll'] as Document).$in).toContain('raw_tag_rename_runs')
    const ns = { db: 'wire', coll: 'raw_tag_rename_runs' }
    server.changes.push({ operationType: 'insert', ns, documentKey: { _id: 'r1' }, fullDocument: {} })
    server.changes.push({ operationType: 'update', ns, documentKey: { _id: 'r1' }, updateDescription: { updatedFields: ['leaseUntil'], removedFields: [] } })
    server.changes.push({ operationType: 'delete', ns, documentKey: { _id: 'r1' } })
    await until(() => seen.changed.length === 2, 'two reports')
    await new Promise((r) => setTimeout(r, 100))
    expect(seen.changed).toEqual([['taxonomy'], ['taxonomy']])
  })

  it("a change to a content row the public saw neither before (its pre-image) nor after moves only all_content, in every process; one it saw before or after, or with no pre-image, moves content", async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const ns = { db: 'wire', coll: payload.db.collections.content!.collection.collectionName }
    const pending = { status: 'pending', isActive: true }
    const approved = { status: 'approved', isActive: true }
    const change = (id: string, operationType: string, rest: Document) => server.changes.push({ operationType, ns, documentKey: { _id: id }, ...rest })
    // Hidden before and after: a pending row's title edited, rejected, soft-deleted, deleted; a rejected row replaced.
    change('h1', 'update', { fullDocumentBeforeChange: pending, updateDescription: { updatedFields: ['title', 'updatedAt'], removedFields: [], visibility: {} } })
    change('h2', 'update', { fullDocumentBeforeChange: pending, updateDescription: { updatedFields: ['status', 'updatedAt'], removedFields: [], visibility: { status: 'rejected' } } })
    change('h3', 'update', { fullDocumentBeforeChange: pending, updateDescription: { updatedFields: ['isActive'], removedFields: [], visibility: { isActive: false } } })
    change('h4', 'delete', { fullDocumentBeforeChange: pending })
    change('h5', 'replace', { fullDocumentBeforeChange: { status: 'rejected', isActive: true }, fullDocument: { status: 'rejected', isActive: true } })
    // Seen by the public before or after: approved, an approved row's title, its soft delete, its delete; no pre-image (not kept, or expired).
    change('p1', 'update', { fullDocumentBeforeChange: pending, updateDescription: { updatedFields: ['status', 'approvedAt'], removedFields: [], visibility: { status: 'approved' } } })
    change('p2', 'update', { fullDocumentBeforeChange: approved, updateDescription: { updatedFields: ['title'], removedFields: [], visibility: {} } })
    change('p3', 'update', { fullDocumentBeforeChange: approved, updateDescription: { updatedFields: ['isActive'], removedFields: [], visibility: { isActive: false } } })
    change('p4', 'delete', { fullDocumentBeforeChange: approved })
    change('p5', 'update', { fullDocumentBeforeChange: null, updateDescription: { updatedFields: ['title'], removedFields: [], visibility: {} } })
    // An inactive row made active again while approved: public after.
    change('p6', 'update', { fullDocumentBeforeChange: { status: 'approved', isActive: false }, updateDescription: { updatedFields: ['isActive'], removedFields: [], visibility: { isActive: true } } })
    await until(() => seen.changed.length === 11, 'eleven reports')
    expect(seen.changed).toEqual([...Array(5).fill(['all_content']), ...Array(6).fill(['content'])])
    expect(seen.rows.map((r) => r?.[0])).toEqual(['h1', 'h2', 'h3', 'h4', 'h5', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6'])
  })

  it('a content update that only shortens an array (truncatedArrays) is a change of that field', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const ns = { db: 'wire', coll: payload.db.collections.content!.collection.collectionName }
    server.changes.push({ operationType: 'update', ns, documentKey: { _id: 'b1' }, updateDescription: { updatedFields: ['updatedAt'], removedFields: [], truncatedArrays: [{ field: 'tagSlugs', newSize: 1 }] } })
    await until(() => seen.changed.length === 1, 'the report')
    expect(seen.changed).toEqual([['content']])
    // The stream asks the server for the field.
    const project = ((streams().at(-1)!.body.pipeline as Document[]).find((stage) => stage.$project)!.$project as Document)
    expect(project['updateDescription.truncatedArrays']).toBe(1)
  })

  it('when the server no longer has the resume point, the feed starts again from now', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    server.changes.push({ operationType: 'update', ns: { db: 'wire', coll: payload.db.collections.content!.collection.collectionName } })
    await until(() => seen.changed.length === 1, 'the event')
    server.changes.fail(serverError(286, 'ChangeStreamHistoryLost'))
    await until(() => seen.lost === 1, 'the feed to go blind')
    await until(() => seen.restored === 2, 'the feed to reopen')
    const reopened = streams().at(-1)!
    expect((reopened.body.pipeline as Document[])[0]).toEqual({ $changeStream: { fullDocumentBeforeChange: 'whenAvailable' } })
  })

  it('a resumable error is resumed by the driver after the last event: blind while it resumes, live at its new cursor, no event lost', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const coll = payload.db.collections.tags!.collection.collectionName
    server.changes.push({ operationType: 'update', ns: { db: 'wire', coll } })
    await until(() => seen.changed.length === 1, 'the first event')
    const opened = streams().length
    server.changes.fail(serverError(10107, 'NotWritablePrimary', ['ResumableChangeStreamError']))
    await until(() => streams().length === opened + 1, 'the driver to resume')
    const resumed = (streams().at(-1)!.body.pipeline as Document[])[0]!.$changeStream as Document
    expect(resumed.resumeAfter ?? resumed.startAfter).toBeDefined()
    await until(() => seen.restored === 2, 'the resumed stream to be live')
    server.changes.push({ operationType: 'delete', ns: { db: 'wire', coll } })
    await until(() => seen.changed.length === 2, 'the event after the resume')
    // The driver's resume, not a second stream of the feed's own.
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    expect(streams()).toHaveLength(opened + 1)
    expect(seen.lost).toBe(1)
    expect(seen.changed).toEqual([['taxonomy'], ['taxonomy']])
  })

  it('an invalidation moves everything and starts a new stream from now', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    server.changes.push({ operationType: 'invalidate' })
    await until(() => seen.restored === 2, 'a new stream')
    expect(seen.changed).toEqual([['content', 'all_content', 'taxonomy', 'branding', 'access']])
    expect((streams().at(-1)!.body.pipeline as Document[])[0]).toEqual({ $changeStream: { fullDocumentBeforeChange: 'whenAvailable' } })
  })

  it('a cursor the server ends (id 0, its invalidate filtered out or never sent) makes the feed blind, then reopens it resumed', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const opened = streams().length
    const coll = payload.db.collections.tags!.collection.collectionName
    server.changes.push({ operationType: 'update', ns: { db: 'wire', coll } })
    await until(() => seen.changed.length === 1, 'the event')
    // The driver ends its stream with no 'error' event: only its 'close' says so.
    server.changes.end()
    await until(() => seen.lost === 1, 'the feed to go blind')
    await until(() => seen.restored === 2, 'the feed to reopen')
    expect(streams()).toHaveLength(opened + 1)
    const resumed = (streams().at(-1)!.body.pipeline as Document[])[0]!.$changeStream as Document
    expect(resumed.resumeAfter).toBeDefined()
    // Live again: the next event is seen.
    server.changes.push({ operationType: 'delete', ns: { db: 'wire', coll } })
    await until(() => seen.changed.length === 2, 'the event after the reopen')
  })

  it("a getMore the server interrupts ('operation was interrupted') ends the driver's stream silently: blind, then reopened", async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const opened = streams().length
    server.changes.fail(serverError(11601, 'Interrupted', [], 'operation was interrupted'))
    await until(() => seen.lost === 1, 'the feed to go blind')
    await until(() => seen.restored === 2, 'the feed to reopen')
    expect(streams()).toHaveLength(opened + 1)
    const coll = payload.db.collections.content!.collection.collectionName
    server.changes.push({ operationType: 'update', ns: { db: 'wire', coll } })
    await until(() => seen.changed.length === 1, 'the event after the reopen')
  })

  it('the stream keeps invalidate and dropDatabase events, which carry no collection name', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    const match = (streams().at(-1)!.body.pipeline as Document[])[1]!.$match as Document
    expect(match.$or).toContainEqual({ operationType: { $in: ['dropDatabase', 'invalidate'] } })
  })

  it('stops: no stream is reopened after stop()', async () => {
    const { seen, to } = sink()
    stop = feed.startMongoChangeFeed(payload, to)
    await until(() => seen.restored === 1, 'the stream to open')
    stop()
    stop = undefined
    const opened = streams().length
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(streams()).toHaveLength(opened)
  })
})

describe('generations (src/db/freshness/generations)', () => {
  it('blind until the feed tells: a key that holds 50 ms at most (own writes still move it); then stable between changes, moved by a change', async () => {
    const { Generations, BLIND_REUSE_MS } = await import('../../src/db/freshness')
    const g = new Generations()
    const blind = g.of('content')
    expect(blind).toMatch(/^blind-/)
    // This process's own write moves it at once, blind or not.
    g.changed(['content'], ['a1'])
    const afterOwnWrite = g.of('content')
    expect(afterOwnWrite).not.toBe(blind)
    await new Promise((resolve) => setTimeout(resolve, BLIND_REUSE_MS + 5))
    expect(g.of('content')).not.toBe(afterOwnWrite)
    g.restored()
    const a = g.of('content')
    expect(g.of('content')).toBe(a)
    g.changed(['taxonomy'])
    expect(g.of('content')).toBe(a)
    g.changed(['content'])
    expect(g.of('content')).not.toBe(a)
    const b = g.of('content')
    g.lost()
    expect(g.of('content')).not.toBe(b)
    g.restored()
    // Everything may have changed while blind: no key from before comes back.
    expect(g.of('content')).not.toBe(b)
  })

  it('a value cached while blind: its rows older than the loss are stale; one read after it is fresh until a row of it is marked', async () => {
    const { Generations } = await import('../../src/db/freshness')
    const g = new Generations()
    g.restored()
    const before = { ids: ['a1'], clock: g.clock() }
    g.lost()
    expect(g.fresh(before)).toBe(false)
    const during = { ids: ['a1'], clock: g.clock() }
    expect(g.fresh(during)).toBe(true)
    g.changed(['content'], ['a1'])
    expect(g.fresh(during)).toBe(false)
  })
})
