/**
 * MongoDB migrations and their lock, seen on the wire (the real driver and the real Payload
 * against the scripted wire server, test/support/mongoWireServer). The lock is one
 * findAndModify upsert that matches only an expired lock (expiry on the server's clock);
 * a live lock makes it collide on _id (11000), and the waiter names the holder; an expired
 * one is taken over, with a warning; the holder beats while it works and deletes only its
 * own lock. Start-up runs, holding it: the pending migrations (duplicate notifications
 * deleted, then the service's indexes built), Payload's indexes, then the caller's work;
 * a database that ran them runs none.
 */
import { MongoClient, type Document } from 'mongodb'
import type { Payload } from 'payload'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { captureLogs } from '../../src/platform/logging'
import { MIGRATION_LOCK_COLLECTION, MigrationLockLost, withMongoMigrationLock, type LockTiming } from '../../src/db/mongo/migrationLock'
import { cursorReply, serverError, startWireServer, type Script, type WireServer } from '../support/mongoWireServer'

const logs: Record<string, any>[] = []
captureLogs({ write: (line: string) => void logs.push(JSON.parse(line)) })

const FAST: LockTiming = { leaseMs: 60_000, heartbeatMs: 25, pollMs: 20, remindMs: 60_000 }
const onLock = (c: { name: string; body: Document }) => c.body[c.name] === MIGRATION_LOCK_COLLECTION

// First: its set-up points the configuration (read once, on first use) at the wire server.
describe('start-up migrations on MongoDB', () => {
  let server: WireServer
  let payload: Payload
  let script: Script = () => undefined

  beforeAll(async () => {
    server = await startWireServer((c, sent) => script(c, sent))
    process.env.DATABASE_URI = server.uri('wire')
    const { getPayload } = await import('payload')
    const config = await (await import('../../payload.config')).default
    payload = await getPayload({ config, disableOnInit: true })
    // Mongoose's background index builds from connecting, done before the tests watch the wire.
    for (const model of Object.values(payload.db.collections)) await model.init()
  })

  afterAll(async () => {
    await payload?.destroy()
    await server?.close()
  })

  beforeEach(() => {
    script = () => undefined
    server.sent.length = 0
  })

  const step = (c: { name: string; body: Document }) =>
    c.name.endsWith('Transaction') ? c.name : `${c.name} ${String(c.body[c.name])}${c.name === 'createIndexes' ? ` ${(c.body.indexes as Document[]).map((i) => i.name).join(',')}` : ''}`

  it('holding the lock: pending migrations (duplicates, then our indexes), their record, Payload indexes, the caller; then release', async () => {
    const { engine } = await import('../../src/db/engine')
    const { MONGO_MIGRATIONS } = await import('../../src/db/mongo/migrate')
    const from = logs.length
    await engine().prepare(payload, async () => void server.sent.push({ name: 'afterMigrate', body: {} }))
    const steps = server.sent.map(step)
    const index = (prefix: string) => steps.findIndex((s) => s.startsWith(prefix))
    expect(index(`findAndModify ${MIGRATION_LOCK_COLLECTION}`)).toBeGreaterThan(-1)
    expect(index('find payload-migrations')).toBeGreaterThan(index(`findAndModify ${MIGRATION_LOCK_COLLECTION}`))
    expect(index('aggregate notifications')).toBeGreaterThan(index('find payload-migrations'))
    expect(index('createIndexes contents raw_content_text')).toBeGreaterThan(index('aggregate notifications'))
    expect(index('createIndexes raw_rate_limits raw_rate_limits_key')).toBeGreaterThan(index('createIndexes contents raw_content_text'))
    expect(index('insert payload-migrations')).toBeGreaterThan(index('createIndexes raw_rate_limits raw_rate_limits_key'))
    expect(index('commitTransaction')).toBeGreaterThan(index('insert payload-migrations'))
    expect(index('afterMigrate')).toBeGreaterThan(index('commitTransaction'))
    expect(index(`delete ${MIGRATION_LOCK_COLLECTION}`)).toBeGreaterThan(index('afterMigrate'))
    // Payload's own indexes are built after the migrations, before the caller's work.
    const payloadIndexes = steps.map((s, i) => (s.startsWith('createIndexes notifications') ? i : -1)).filter((i) => i >= 0)
    expect(payloadIndexes.length).toBeGreaterThan(0)
    expect(payloadIndexes.every((i) => i > index('commitTransaction') && i < index('afterMigrate'))).toBe(true)
    const record = server.sent.find((c) => c.name === 'insert' && c.body.insert === 'payload-migrations')
    expect((record?.body.documents as Document[])[0]).toMatchObject({ name: MONGO_MIGRATIONS[0]!.name, batch: 1 })
    expect(logs.slice(from).find((l) => l.msg === 'migrations.applied')).toMatchObject({ applied: MONGO_MIGRATIONS.map((m) => m.name) })
  })

  it('the collections transactions write exist before the first transaction: created holding the lock, one that exists (48) is no error', async () => {
    const { engine } = await import('../../src/db/engine')
    const { SERVICE_COLLECTIONS } = await import('../../src/db/mongo/migrate')
    let refused = 0
    script = (c) => (c.name === 'create' && refused++ === 0 ? serverError(48, 'NamespaceExists') : undefined)
    await engine().prepare(payload)
    const created = server.sent.filter((c) => c.name === 'create').map((c) => String(c.body.create))
    expect(created).toEqual(expect.arrayContaining([...SERVICE_COLLECTIONS]))
    const lock = server.sent.findIndex((c) => c.name === 'findAndModify' && c.body.findAndModify === MIGRATION_LOCK_COLLECTION)
    const firstTransaction = server.sent.findIndex((c) => c.startTransaction === true)
    const lastCreate = server.sent.map((c) => (c.name === 'create' && SERVICE_COLLECTIONS.includes(c.body.create as never) ? 'ours' : '')).lastIndexOf('ours')
    expect(lock).toBeGreaterThan(-1)
    expect(server.sent.findIndex((c) => c.name === 'create')).toBeGreaterThan(lock)
    expect(lastCreate).toBeLessThan(firstTransaction)
  })

  it("each migration's transaction first writes the lock, guarded by its holder, in the migration's own session (issue 55.10): it commits only under the lock", async () => {
    const { engine } = await import('../../src/db/engine')
    await engine().prepare(payload)
    const inTxn = (c: { txnNumber?: number }) => c.txnNumber !== undefined
    const records = server.sent.filter((c) => c.name === 'insert' && c.body.insert === 'payload-migrations')
    expect(records.length).toBeGreaterThan(0)
    for (const record of records) {
      const txn = server.sent.filter((c) => inTxn(c) && c.session === record.session && c.txnNumber === record.txnNumber)
      // The transaction's first command: the lock's document, its holder in the filter.
      expect(txn[0]!.name).toBe('update')
      expect(txn[0]!.body.update).toBe(MIGRATION_LOCK_COLLECTION)
      expect((txn[0]!.body.updates as Document[])[0]!.q).toMatchObject({ _id: 'migrations', holder: expect.any(String) })
      expect(txn.at(-1)!.name).toBe('commitTransaction')
    }
  })

  it('a migration that finds its lock taken over commits nothing: its transaction aborted, no record, the start stopped (MigrationLockLost)', async () => {
    const { engine } = await import('../../src/db/engine')
    // The lock's holder-guarded write inside a transaction matches nothing: another process holds it now.
    script = (c) => (c.name === 'update' && c.body.update === MIGRATION_LOCK_COLLECTION && c.txnNumber !== undefined ? { ok: 1, n: 0, nModified: 0 } : undefined)
    const err = await engine().prepare(payload).then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(MigrationLockLost)
    expect(server.sent.some((c) => c.name === 'insert' && c.body.insert === 'payload-migrations')).toBe(false)
    expect(server.sent.some((c) => c.name === 'commitTransaction')).toBe(false)
    expect(server.sent.some((c) => c.name === 'abortTransaction')).toBe(true)
  })

  it("an older build's text index with another definition is dropped and rebuilt by the migration, logged; Payload's are not touched", async () => {
    const { engine } = await import('../../src/db/engine')
    let refused = false
    script = (c) => {
      const names = ((c.body.indexes as Document[] | undefined) ?? []).map((i) => i.name)
      if (c.name === 'createIndexes' && names.includes('raw_content_text') && !refused) {
        refused = true
        return serverError(85, 'IndexOptionsConflict')
      }
      if (c.name === 'listIndexes' && c.body.listIndexes === 'contents') {
        return cursorReply('wire.contents', [
          { v: 2, key: { _id: 1 }, name: '_id_' },
          { v: 2, key: { slug: 1 }, name: 'slug_1', unique: true },
          { v: 2, key: { _fts: 'text', _ftsx: 1 }, name: 'raw_content_text', weights: { title: 1 } },
        ])
      }
      return undefined
    }
    const from = logs.length
    await engine().prepare(payload)
    const steps = server.sent.map(step)
    const drops = server.sent.filter((c) => c.name === 'dropIndexes').map((c) => `${String(c.body.dropIndexes)}.${String(c.body.index)}`)
    expect(drops).toEqual(['contents.raw_content_text'])
    const rebuilt = steps.lastIndexOf('createIndexes contents raw_content_text')
    expect(rebuilt).toBeGreaterThan(steps.indexOf('dropIndexes contents'))
    expect(logs.slice(from).find((l) => l.msg === 'mongo.index_replaced')).toMatchObject({
      collection: 'contents',
      dropped: 'raw_content_text',
      replacement: 'raw_content_text',
    })
  })

  it('a database that ran them runs none: no index of ours is built, nothing recorded', async () => {
    const { engine } = await import('../../src/db/engine')
    const { MONGO_MIGRATIONS } = await import('../../src/db/mongo/migrate')
    script = (c) =>
      c.name === 'find' && c.body.find === 'payload-migrations'
        ? cursorReply('wire.payload-migrations', MONGO_MIGRATIONS.map((m) => ({ _id: m.name, name: m.name, batch: 1 })))
        : undefined
    const from = logs.length
    await engine().prepare(payload)
    const steps = server.sent.map(step)
    expect(steps.some((s) => s.includes('raw_content_'))).toBe(false)
    expect(steps.some((s) => s === 'insert payload-migrations')).toBe(false)
    expect(logs.slice(from).find((l) => l.msg === 'migrations.up_to_date')).toMatchObject({ migrations: MONGO_MIGRATIONS.length })
  })
})

describe('the MongoDB migration lock', () => {
  let server: WireServer | undefined
  let client: MongoClient | undefined

  afterEach(async () => {
    await client?.close()
    await server?.close()
    client = undefined
    server = undefined
  })

  async function dbOver(script: Script) {
    server = await startWireServer(script)
    client = new MongoClient(server.uri('wire'))
    await client.connect()
    return { db: client.db('wire'), server }
  }

  it('is one findAndModify upsert matching only an expired lock, on the server clock; released by deleting its own', async () => {
    const { db, server } = await dbOver(() => undefined)
    let during: string[] = []
    await withMongoMigrationLock(db, async () => void (during = server.sent.filter(onLock).map((c) => c.name)), FAST)
    const [take, ...rest] = server.sent.filter(onLock)
    expect(during).toEqual(['findAndModify'])
    expect(take?.body).toMatchObject({
      query: { _id: 'migrations', $expr: { $lt: ['$expiresAt', '$$NOW'] } },
      upsert: true,
      new: false,
    })
    const set = (take?.body.update as Document[])[0]?.$set
    expect(set).toMatchObject({ pid: process.pid, acquiredAt: '$$NOW', expiresAt: { $add: ['$$NOW', 60_000] } })
    expect(rest.map((c) => c.name)).toEqual(['delete'])
    expect((rest[0]?.body.deletes as Document[])[0]?.q).toEqual({ _id: 'migrations', holder: set.holder })
  })

  it('a live lock (11000 on the upsert) makes it wait, naming the holder, and work only once it got it', async () => {
    let refusals = 3
    const other = { _id: 'migrations', holder: 'other-host:4242:abcd', pid: 4242, host: 'other-host', acquiredAt: new Date(), expiresAt: new Date(Date.now() + 60_000) }
    const { db, server } = await dbOver((c) => {
      if (c.name === 'findAndModify' && onLock(c) && refusals-- > 0) return serverError(11000, 'DuplicateKey')
      if (c.name === 'find' && onLock(c)) return cursorReply(`wire.${MIGRATION_LOCK_COLLECTION}`, [other])
      return undefined
    })
    const from = logs.length
    let ranAfter = -1
    await withMongoMigrationLock(db, async () => void (ranAfter = server.sent.filter((c) => c.name === 'findAndModify').length), FAST)
    expect(ranAfter).toBe(4)
    const waiting = logs.slice(from).filter((l) => l.msg === 'migrations.waiting')
    // Said once for one holder, not on every poll.
    expect(waiting).toHaveLength(1)
    expect(waiting[0]).toMatchObject({ holder: { host: 'other-host', pid: 4242 } })
  })

  it('an expired lock is taken over in the same write, with a warning naming the previous holder', async () => {
    const { db } = await dbOver((c) =>
      c.name === 'findAndModify' && onLock(c)
        ? { ok: 1, value: { _id: 'migrations', holder: 'dead:1:ffff', pid: 1, host: 'dead', expiresAt: new Date(0) }, lastErrorObject: { n: 1, updatedExisting: true } }
        : undefined,
    )
    const from = logs.length
    await withMongoMigrationLock(db, async () => undefined, FAST)
    expect(logs.slice(from).find((l) => l.msg === 'migrations.lock_expired_taken_over')).toMatchObject({ previous: { holder: 'dead:1:ffff' } })
  })

  it('beats while it works: its own lock, expiry pushed on the server clock', async () => {
    const { db, server } = await dbOver(() => undefined)
    await withMongoMigrationLock(db, () => new Promise((r) => setTimeout(r, 150)), FAST)
    const beats = server.sent.filter((c) => c.name === 'update' && onLock(c))
    expect(beats.length).toBeGreaterThanOrEqual(2)
    const [u] = beats[0]!.body.updates as Document[]
    expect(u?.q).toMatchObject({ _id: 'migrations', holder: expect.any(String) })
    expect(u?.u).toEqual([{ $set: { expiresAt: { $add: ['$$NOW', 60_000] } } }])
    // None after the release.
    const released = server.sent.findIndex((c) => c.name === 'delete' && onLock(c))
    expect(server.sent.slice(released).some((c) => c.name === 'update' && onLock(c))).toBe(false)
  })
  it('fenced: once a heartbeat finds the lock no longer its own (another process took it over), the next step stops with MigrationLockLost, logged', async () => {
    const { db } = await dbOver((c) => (c.name === 'update' && onLock(c) ? { ok: 1, n: 0, nModified: 0 } : undefined))
    const from = logs.length
    const steps: number[] = []
    const err = await withMongoMigrationLock(
      db,
      async (fence) => {
        fence.check()
        steps.push(1)
        await new Promise((r) => setTimeout(r, 100))
        fence.check()
        steps.push(2)
      },
      FAST,
    ).then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(MigrationLockLost)
    expect(steps).toEqual([1])
    expect(logs.slice(from).filter((l) => l.msg === 'migrations.lock_lost')).toHaveLength(1)
  })

  it('fenced: a lease no heartbeat renewed before it ran out stops the next step (a heartbeat that fails is not a renewal)', async () => {
    const { db } = await dbOver((c) => (c.name === 'update' && onLock(c) ? serverError(91, 'ShutdownInProgress') : undefined))
    const short: LockTiming = { ...FAST, leaseMs: 60 }
    const err = await withMongoMigrationLock(
      db,
      async (fence) => {
        fence.check()
        await new Promise((r) => setTimeout(r, 120))
        fence.check()
      },
      short,
    ).then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(MigrationLockLost)
  })

  it('a holder whose heartbeats land keeps its fence open past the first lease', async () => {
    const { db } = await dbOver(() => undefined)
    // Held well past its lease; the lease itself far longer than a busy machine's stall (a stall past
    // it would rightly close the fence: another process could have taken the lock meanwhile).
    const short: LockTiming = { ...FAST, leaseMs: 500, heartbeatMs: 25 }
    await withMongoMigrationLock(
      db,
      async (fence) => {
        await new Promise((r) => setTimeout(r, 1_200))
        fence.check()
      },
      short,
    )
  })
})
