/**
 * Payload's own saves on MongoDB, seen on the wire: the real Payload (mongoose adapter) and
 * the real driver against the scripted wire server (test/support/mongoWireServer). A save
 * and every write its hooks make are one transaction, committed once or aborted whole, and
 * nothing shared (no counter document) is written inside it.
 */
import type { Payload, Where } from 'payload'
import { describe, expect, it } from 'vitest'

import { ObjectId, type Document } from 'mongodb'

import { cursorReply, type SentCommand, serverError, waitForLiveFeed, wireFile } from '../support/mongoWireServer'

const wire = wireFile()

const saveFacet = () => wire.payload.create({ collection: 'facets', data: { key: 'topic', label: 'Topic', color: '#336699' }, overrideAccess: true })

const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'commitTransaction', 'abortTransaction'])
const writes = () => wire.server.sent.filter((c) => WRITES.has(c.name))
const target = (c: { name: string; body: Record<string, unknown> }) =>
  c.name.endsWith('Transaction') ? c.name : `${c.name} ${String(c.body[c.name])}`

describe("Payload's own save on MongoDB", () => {
  it('writes the document in one transaction, committed once, and no shared document beside it', async () => {
    const { generation } = await import('../../src/db/engine')
    await saveFacet()
    // The document and its version (collections/versions.ts), one transaction.
    expect(writes().map(target)).toEqual(['insert facets', 'insert _facets_versions', 'commitTransaction'])
    expect(new Set(writes().map((c) => `${c.session}/${c.txnNumber}`)).size).toBe(1)
    expect(writes()[0]?.startTransaction).toBe(true)
    expect(writes()[0]?.body.autocommit).toBe(false)
    // This process reads its own write at once: the taxonomy generation moved at the commit.
    await waitForLiveFeed(wire.payload)
    const before = generation(wire.payload, 'taxonomy')
    await saveFacet()
    expect(generation(wire.payload, 'taxonomy')).not.toBe(before)
  })

  it('reads one snapshot and commits with a majority (issue 55.8: a failover cannot roll back an answered save)', async () => {
    await saveFacet()
    const first = writes()[0]
    const commit = writes().at(-1)
    expect(first?.startTransaction).toBe(true)
    expect(first?.body.readConcern).toMatchObject({ level: 'snapshot' })
    expect(commit?.name).toBe('commitTransaction')
    expect(commit?.body.writeConcern).toMatchObject({ w: 'majority' })
  })

  it("Payload's admin content list is sorted by an index: the sort the adapter itself sends, after each filter the list uses", async () => {
    const { serviceIndexes } = await import('../../src/db/mongo/indexes')
    const contents = wire.payload.db.collections.content!.collection.collectionName
    const keys = serviceIndexes(contents).filter((p) => p.collection === contents).map((p) => p.index.key as Record<string, unknown>)
    // The list as the admin panel asks it: its default sort, pending first (the queue's default filter) or every item.
    for (const where of [{ status: { equals: 'pending' } }, {}] as Where[]) {
      wire.server.sent.length = 0
      await wire.payload.find({ collection: 'content', where, sort: '-approvedAt', limit: 10, depth: 0, overrideAccess: true })
      // The page's read (the count beside it sorts nothing).
      const sorts = (c: SentCommand) => c.name === 'find' || (c.name === 'aggregate' && (c.body.pipeline as Document[]).some((st) => st.$sort))
      const read = wire.server.sent.find((c) => c.body[c.name] === contents && sorts(c))!
      const sort = (read.name === 'find' ? read.body.sort : (read.body.pipeline as Document[]).find((st) => st.$sort)!.$sort) as Record<string, unknown>
      expect(Object.keys(sort).length).toBeGreaterThan(1)
      const equalities = Object.keys(where)
      // An index that leads with the filter's equalities, then has every sort key in order and direction.
      const serves = keys.some((key) => {
        const fields = Object.entries(key)
        const lead = fields.slice(0, equalities.length).map(([f]) => f)
        const next = fields.slice(equalities.length, equalities.length + Object.keys(sort).length)
        return JSON.stringify(lead.sort()) === JSON.stringify([...equalities].sort()) && JSON.stringify(Object.fromEntries(next)) === JSON.stringify(sort)
      })
      expect(serves, `no index serves ${JSON.stringify(where)} sorted ${JSON.stringify(sort)}`).toBe(true)
      // Payload's own reads carry the content store's time limit, the page and its count alike.
      const { READ_LIMIT_MS } = await import('../../src/db/mongo/readLimit')
      // (An unfiltered count is the collection's metadata, `count` without a query: nothing to limit.)
      const reads = wire.server.sent.filter((c) => c.body[c.name] === contents && !(c.name === 'count' && !c.body.query))
      expect(reads.length).toBeGreaterThan(0)
      for (const c of reads) expect(c.body.maxTimeMS, c.name).toBe(READ_LIMIT_MS)
    }
  })

  it('a save whose write fails is aborted whole: no commit, the caller gets the error, the generation stays', async () => {
    const { generation } = await import('../../src/db/engine')
    await waitForLiveFeed(wire.payload)
    const before = generation(wire.payload, 'taxonomy')
    wire.script = (c) => (c.name === 'insert' && c.body.insert === 'facets' ? serverError(2, 'BadValue') : undefined)
    const err = await saveFacet().then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
    expect(writes().map(target)).toEqual(['insert facets', 'abortTransaction'])
    expect(generation(wire.payload, 'taxonomy')).toBe(before)
  })

  it('a WriteConflict inside a Local API save: payloadWrite runs the whole save again, committed once', async () => {
    const { payloadWrite } = await import('../../src/db/payloadWrite')
    let conflicts = 1
    wire.script = (c) =>
      c.name === 'insert' && c.body.insert === 'facets' && conflicts-- > 0 ? serverError(112, 'WriteConflict', ['TransientTransactionError']) : undefined
    await payloadWrite(saveFacet)
    expect(writes().map(target)).toEqual(['insert facets', 'abortTransaction', 'insert facets', 'insert _facets_versions', 'commitTransaction'])
    const [first, , second] = writes()
    expect(`${second?.session}/${second?.txnNumber}`).not.toBe(`${first?.session}/${first?.txnNumber}`)
    expect(second?.startTransaction).toBe(true)
  })

  it("an unknown commit result on Payload's own commit re-sends only the commit", async () => {
    let unknown = 2
    wire.script = (c) =>
      c.name === 'commitTransaction' && unknown-- > 0 ? serverError(50, 'MaxTimeMSExpired', ['UnknownTransactionCommitResult']) : undefined
    await saveFacet()
    expect(writes().map(target)).toEqual(['insert facets', 'insert _facets_versions', 'commitTransaction', 'commitTransaction', 'commitTransaction'])
    expect(new Set(writes().map((c) => `${c.session}/${c.txnNumber}`)).size).toBe(1)
  })

  it("a commit whose result stays unknown past the retries fails the save and still ends its session (its wire.server session goes back to the pool)", async () => {
    wire.script = (c) => (c.name === 'commitTransaction' ? serverError(50, 'MaxTimeMSExpired', ['UnknownTransactionCommitResult']) : undefined)
    const err = await saveFacet().then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
    const commits = wire.server.named('commitTransaction')
    expect(commits.length).toBe(5)
    const failed = commits[0]!.session
    wire.script = () => undefined
    wire.server.sent.length = 0
    await saveFacet()
    // The driver hands the most recently released wire.server session out first.
    expect(writes()[0]!.session).toBe(failed)
  })

  it('no index is built outside the migration lock (Payload\'s own included), and duplicate notifications go before their unique index: recorded from the server\'s start', async () => {
    const extra = new ObjectId('65a1b2c3d4e5f60718293a02')
    wire.script = (c) => {
      if (c.name === 'aggregate' && c.body.aggregate === 'notifications') return cursorReply('wire.notifications', [{ extra: [extra] }])
      return undefined
    }
    const { engine } = await import('../../src/db/engine')
    await engine().prepare(wire.payload)
    // Everything since Payload connected (its adapter would have mongoose build ~70 indexes there).
    const log = wire.server.log
    const at = (name: string, coll?: string, from = 0) => log.findIndex((c, i) => i >= from && c.name === name && (coll === undefined || c.body[name] === coll))
    const locked = at('findAndModify', 'raw_migration_lock')
    const released = at('delete', 'raw_migration_lock', locked)
    expect(locked).toBeGreaterThan(-1)
    expect(released).toBeGreaterThan(locked)
    const builds = log.flatMap((c, i) => (c.name === 'createIndexes' ? [i] : []))
    expect(builds.length).toBeGreaterThan(10)
    for (const i of builds) {
      expect(i, `createIndexes ${String(log[i]!.body.createIndexes)}`).toBeGreaterThan(locked)
      expect(i).toBeLessThan(released)
    }
    const deleted = at('delete', 'notifications')
    expect(deleted).toBeGreaterThan(locked)
    expect(deleted).toBeLessThan(at('createIndexes', 'notifications'))
    expect((log[deleted]?.body.deletes as Document[])[0]?.q).toEqual({ _id: { $in: [extra] } })
  })

  it('the URL-key backfill is a migration: it keys the rows left and moves the content generation here (others see it through their change stream)', async () => {
    let pending = [{ _id: new ObjectId('65a1b2c3d4e5f60718293a09'), url: 'https://example.com/a' }]
    wire.script = (c) => {
      if (c.name === 'find' && c.body.find === 'contents') {
        const batch = pending
        pending = []
        return cursorReply('wire.contents', batch)
      }
      return undefined
    }
    const { generation } = await import('../../src/db/engine')
    const migration = await import('../../src/db/mongo/migrations/20261127_140000_url_key_backfill')
    await waitForLiveFeed(wire.payload)
    const before = generation(wire.payload, 'content')
    await migration.up({ payload: wire.payload } as never)
    const keyed = wire.server.sent.filter((c) => c.name === 'update' && c.body.update === 'contents')
    expect(keyed).toHaveLength(1)
    expect((keyed[0]!.body.updates as Document[])[0]).toMatchObject({
      q: { _id: new ObjectId('65a1b2c3d4e5f60718293a09'), urlKey: null },
      u: { $set: { urlKey: 'https://example.com/a', urlKeyOrdinal: 0 } },
    })
    const after = generation(wire.payload, 'content')
    expect(after).not.toBe(before)
    // Nothing left to key: nothing moves, and no counter document is ever written.
    await migration.up({ payload: wire.payload } as never)
    expect(generation(wire.payload, 'content')).toBe(after)
    expect(wire.server.sent.some((c) => String(c.body[c.name]).startsWith('raw_versions'))).toBe(false)
  })

  it('the URL-key backfill walks by _id: each batch asks for the rows after the last one\'s id (one pass over the index, not a scan per batch)', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => new ObjectId(`65a1b2c3d4e5f6071829${i.toString(16).padStart(4, '0')}`))
    wire.script = (c) => {
      if (c.name !== 'find' || c.body.find !== 'contents') return undefined
      const after = ((c.body.filter as Document)._id as Document | undefined)?.$gt as ObjectId | undefined
      const from = after ? ids.findIndex((id) => id.equals(after)) + 1 : 0
      return cursorReply('wire.contents', ids.slice(from, from + Number(c.body.limit)).map((_id, i) => ({ _id, url: `https://example.com/${from + i}` })))
    }
    const { backfillUrlKeys } = await import('../../src/db/mongo/urlKeys')
    const contents = wire.payload.db.collections.content!.collection
    expect(await backfillUrlKeys(contents as never)).toBe(501)
    const finds = wire.server.sent.filter((c) => c.name === 'find' && c.body.find === 'contents')
    expect(finds.map((c) => c.body.filter)).toEqual([{ urlKey: null }, { urlKey: null, _id: { $gt: ids[499] } }])
    expect(finds.every((c) => JSON.stringify(c.body.sort) === JSON.stringify({ _id: 1 }))).toBe(true)
  })

  it('a start on a database that ran every migration reads nothing of the content collection (no backfill scan)', async () => {
    const { MONGO_MIGRATIONS } = await import('../../src/db/mongo/migrate')
    wire.script = (c) =>
      c.name === 'find' && c.body.find === 'payload-migrations'
        ? cursorReply('wire.payload-migrations', MONGO_MIGRATIONS.map((m) => ({ _id: new ObjectId(), name: m.name, batch: 1 })))
        : undefined
    const { engine } = await import('../../src/db/engine')
    await engine().prepare(wire.payload)
    await engine().contentStore(wire.payload).prepare()
    const onContents = wire.server.sent.filter((c) => c.body[c.name] === 'contents' && c.name !== 'createIndexes' && c.name !== 'listIndexes')
    expect(onContents.map((c) => c.name)).toEqual([])
  })

  it("the pool and its waits are bounded where the URI leaves them (issue 55.9): 20 connections, 2 s for one, the URI's own setting kept", async () => {
    const { poolOptions, POOL_DEFAULTS } = await import('../../src/db/mongo/operations')
    const options = (wire.payload.db.connection.getClient() as unknown as { options: Record<string, unknown> }).options
    expect(options.maxPoolSize).toBe(POOL_DEFAULTS.maxPoolSize)
    expect(options.waitQueueTimeoutMS).toBe(POOL_DEFAULTS.waitQueueTimeoutMS)
    // This file's URI sets serverSelectionTimeoutMS itself (2 s): it is the URI's that holds.
    expect(options.serverSelectionTimeoutMS).toBe(2000)
    expect(poolOptions('mongodb://a:1,b:2/db?replicaSet=rs0')).toEqual({ maxPoolSize: 20, waitQueueTimeoutMS: 2000, serverSelectionTimeoutMS: 5000 })
    expect(poolOptions('mongodb://a:1,b:2/db?replicaSet=rs0&MaxPoolSize=50')).toEqual({ waitQueueTimeoutMS: 2000, serverSelectionTimeoutMS: 5000 })
  })

  it("Payload's own REST answers a save that met a concurrent one 409 'save again', and a database out of reach 503 with Retry-After, never 500 (issue 55.11)", async () => {
    const { MongoServerError } = await import('mongodb')
    const { SAVE_AGAIN } = await import('../../src/services/databaseErrors')
    const hooks = wire.payload.config.hooks.afterError ?? []
    expect(hooks.length).toBeGreaterThan(0)
    const answer = async (error: Error) => {
      const req = { responseHeaders: undefined } as unknown as import('payload').PayloadRequest
      for (const hook of hooks) {
        const result = await hook({ error, req, context: {} })
        if (result) return { ...result, retryAfter: req.responseHeaders?.get('retry-after') }
      }
      return undefined
    }
    // Two creates of top-level surfaces at once: the guard's write conflict, as the server labels it.
    const conflict = new MongoServerError({ code: 112, codeName: 'WriteConflict', errmsg: 'write conflict', errorLabels: ['TransientTransactionError'] })
    expect(await answer(conflict)).toMatchObject({ status: 409, response: { errors: [{ message: SAVE_AGAIN }] } })
    const steppedDown = new MongoServerError({ code: 10107, codeName: 'NotWritablePrimary', errmsg: 'not primary' })
    expect(await answer(steppedDown)).toMatchObject({ status: 503, retryAfter: '2' })
    expect(await answer(new Error('anything else'))).toBeUndefined()
  })

  it('the start-up check passes on a URI that names the replica set', async () => {
    const { engine } = await import('../../src/db/engine')
    await expect(engine().prepare(wire.payload)).resolves.toBeUndefined()
  })
})
