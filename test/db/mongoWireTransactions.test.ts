/**
 * What the project's raw MongoDB transactions send on the wire (the real driver against the
 * scripted wire server, test/support/mongoWireServer): every write of a transaction carries
 * one session and one transaction number, the first opens the transaction, and the end is
 * exactly one commit or one abort. A transient failure re-runs the whole transaction in a
 * new transaction number; an unknown commit result re-sends only the commit; anything else
 * aborts and is thrown.
 */
import { MongoClient, MongoServerError } from 'mongodb'
import type { Payload } from 'payload'
import { afterEach, describe, expect, it } from 'vitest'

import { inTransaction, ReplicaSetRequired, requireReplicaSet } from '../../src/db/mongo/transaction'
import { serverError, startWireServer, type Script, type WireServer } from '../support/mongoWireServer'

let server: WireServer | undefined
let client: MongoClient | undefined

afterEach(async () => {
  await client?.close()
  await server?.close()
  client = undefined
  server = undefined
})

/** The slice of Payload that inTransaction uses, over a real driver client. */
async function connect(script: Script, setName: string | null = 'rs0') {
  server = await startWireServer(script, { setName })
  client = new MongoClient(server.uri('wire'), { retryWrites: true })
  await client.connect()
  const db = client.db('wire')
  const sessions: Record<string, unknown> = {}
  const payload = { db: { connection: { db, getClient: () => client }, sessions } } as unknown as Payload
  return { payload, server, sessions }
}

/** Two writes in one transaction, as the workflow writes do (the row, then its audit event). */
const twoWrites = (payload: Payload) =>
  inTransaction(payload, async ({ db, session }) => {
    await db.collection<{ _id: number; status?: string }>('contents').updateOne({ _id: 1 }, { $set: { status: 'approved' } }, { session })
    await db.collection('moderation_events').insertOne({ content: 1 }, { session })
    return 'done'
  })

const transactional = (name: string) => ['update', 'insert', 'commitTransaction', 'abortTransaction'].includes(name)

describe('a raw transaction on the wire', () => {
  it('sends both writes and one commit under one session and one transaction number', async () => {
    const { payload, server, sessions } = await connect(() => undefined)
    expect(await twoWrites(payload)).toBe('done')
    const tx = server.sent.filter((c) => transactional(c.name))
    expect(tx.map((c) => c.name)).toEqual(['update', 'insert', 'commitTransaction'])
    expect(new Set(tx.map((c) => c.session)).size).toBe(1)
    expect(tx[0]?.session).toMatch(/^[0-9a-f]{32}$/)
    expect(new Set(tx.map((c) => c.txnNumber))).toEqual(new Set([1]))
    expect(tx.map((c) => c.startTransaction ?? false)).toEqual([true, false, false])
    expect(tx.every((c) => c.body.autocommit === false)).toBe(true)
    // The session was registered for Payload's own operations while open, and removed after.
    expect(Object.keys(sessions)).toEqual([])
  })

  it('reads one snapshot and commits with a majority (issue 55.8)', async () => {
    const { payload, server } = await connect(() => undefined)
    await twoWrites(payload)
    const tx = server.sent.filter((c) => transactional(c.name))
    expect(tx[0]?.body.readConcern).toMatchObject({ level: 'snapshot' })
    expect(tx.at(-1)?.name).toBe('commitTransaction')
    expect(tx.at(-1)?.body.writeConcern).toMatchObject({ w: 'majority' })
  })

  it('a WriteConflict (TransientTransactionError) aborts and re-runs the whole transaction', async () => {
    let conflicts = 1
    const script: Script = (c) =>
      c.name === 'insert' && conflicts-- > 0 ? serverError(112, 'WriteConflict', ['TransientTransactionError']) : undefined
    const { payload, server } = await connect(script)
    expect(await twoWrites(payload)).toBe('done')
    const tx = server.sent.filter((c) => transactional(c.name))
    expect(tx.map((c) => c.name)).toEqual(['update', 'insert', 'abortTransaction', 'update', 'insert', 'commitTransaction'])
    // The second attempt is a new transaction (its first write opens it again).
    expect(tx[3]?.startTransaction).toBe(true)
    expect(`${tx[3]?.session}/${tx[3]?.txnNumber}`).not.toBe(`${tx[0]?.session}/${tx[0]?.txnNumber}`)
    expect(server.named('commitTransaction')).toHaveLength(1)
  })

  it('an unknown commit result re-sends only the commit, never the writes', async () => {
    let unknown = 2
    const script: Script = (c) =>
      c.name === 'commitTransaction' && unknown-- > 0 ? serverError(50, 'MaxTimeMSExpired', ['UnknownTransactionCommitResult']) : undefined
    const { payload, server } = await connect(script)
    expect(await twoWrites(payload)).toBe('done')
    const tx = server.sent.filter((c) => transactional(c.name))
    expect(tx.map((c) => c.name)).toEqual(['update', 'insert', 'commitTransaction', 'commitTransaction', 'commitTransaction'])
    expect(new Set(tx.map((c) => `${c.session}/${c.txnNumber}`)).size).toBe(1)
  })

  it('a non-transient error aborts once and is thrown, nothing re-run', async () => {
    const script: Script = (c) => (c.name === 'insert' ? serverError(11000, 'DuplicateKey') : undefined)
    const { payload, server } = await connect(script)
    const err = await twoWrites(payload).then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(MongoServerError)
    expect((err as MongoServerError).code).toBe(11000)
    expect(server.sent.filter((c) => transactional(c.name)).map((c) => c.name)).toEqual(['update', 'insert', 'abortTransaction'])
  })

  it('gives up once its time budget (1.5 s from the first attempt) is spent, each attempt aborted', async () => {
    const script: Script = (c) => (c.name === 'update' ? serverError(112, 'WriteConflict', ['TransientTransactionError']) : undefined)
    const { payload, server } = await connect(script)
    const err = await twoWrites(payload).then(() => null, (e: unknown) => e)
    expect((err as MongoServerError).code).toBe(112)
    // The waits (jittered, 5 to 250 ms) fit 10 to 17 attempts in the budget on a quiet machine, fewer
    // when each attempt's round trip is slow: more than the five a count allowed, each one aborted.
    expect(server.named('update').length).toBeGreaterThan(5)
    expect(server.named('abortTransaction')).toHaveLength(server.named('update').length)
    expect(server.named('insert')).toHaveLength(0)
  })
})

describe('the replica-set check', () => {
  it('a standalone server (hello without setName) is refused before any write', async () => {
    server = await startWireServer(() => undefined, { setName: null })
    client = new MongoClient(server.uri('wire'))
    await client.connect()
    const err = await requireReplicaSet(client.db('wire')).then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(ReplicaSetRequired)
    expect(server.sent.filter((c) => transactional(c.name))).toEqual([])
  })

  it('a replica set member reports its set name', async () => {
    server = await startWireServer(() => undefined, { setName: 'prod-rs' })
    client = new MongoClient(server.uri('wire'))
    await client.connect()
    expect(await requireReplicaSet(client.db('wire'))).toBe('prod-rs')
  })
})

describe('driver handles from another copy of the driver', () => {
  it("are accepted by their methods: Payload's connection may hold a Db of mongoose's own mongodb copy", async () => {
    const { nativeClient, nativeDb } = await import('../../src/db/mongo/native')
    const { payload } = await connect(() => undefined)
    // Plain objects with the driver's methods, as a Db/MongoClient of another class would be.
    const db = nativeDb(payload)
    const foreignDb = { collection: db.collection.bind(db), command: db.command.bind(db), admin: db.admin.bind(db) }
    const foreignClient = { startSession: () => undefined, db: () => undefined, close: () => undefined }
    const foreign = { db: { connection: { db: foreignDb, getClient: () => foreignClient }, sessions: {} } } as unknown as Payload
    expect(nativeDb(foreign)).toBe(foreignDb)
    expect(nativeClient(foreign)).toBe(foreignClient)
    const empty = { db: { connection: { db: {}, getClient: () => ({}) }, sessions: {} } } as unknown as Payload
    expect(() => nativeDb(empty)).toThrow(/Client must be connected/)
    expect(() => nativeClient(empty)).toThrow(/Client must be connected/)
  })
})
