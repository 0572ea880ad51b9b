/**
 * Multi-document transactions for the raw write paths. The session is registered in
 * Payload's own session table under a transaction id, so Payload's adapter operations
 * (`payload.db.create`, `updateOne`, ... given `req: { transactionID }`) join the same
 * transaction as the raw driver calls. The whole transaction is retried on transient
 * errors; an unknown commit result retries the commit only (the server commits once).
 */
import { randomUUID } from 'node:crypto'
import type { ClientSession, Db, Document, MongoClient, TransactionOptions } from 'mongodb'
import type { Payload } from 'payload'

import { retryTransient } from '../transientRetry'
import { commitWithRetry } from './commit'
import { nativeClient, nativeDb } from './native'
import { isTransient } from './retry'

export type Tx = {
  session: ClientSession
  /** Pass as `req` to Payload's adapter operations so they run in this transaction. */
  req: { transactionID: string }
  db: Db
}

export class ReplicaSetRequired extends Error {
  constructor(detail = 'the server reports no replica set name') {
    super(
      `MongoDB must run as a replica set (transactions need one): ${detail}. ` +
        'Start mongod with --replSet and initiate it (rs.initiate()), and add ?replicaSet=<name> to DATABASE_URI.',
    )
    this.name = 'ReplicaSetRequired'
  }
}

/** The replica set name a `hello` reply reports, or throws ReplicaSetRequired (a mongos named as such). */
export function replicaSetOf(hello: Document): string {
  // A sharded cluster's router: transactions would work, the schema's unique indexes would not (docs/mongodb.md).
  if (hello.msg === 'isdbgrid') throw new ReplicaSetRequired('the server is a mongos; sharded clusters are not supported (docs/mongodb.md, "Past one replica set")')
  const setName: unknown = hello.setName
  if (typeof setName !== 'string' || setName === '') throw new ReplicaSetRequired()
  return setName
}

/** The replica set name from `hello`, or throws ReplicaSetRequired. */
export async function requireReplicaSet(db: Db): Promise<string> {
  return replicaSetOf(await db.admin().command({ hello: 1 }))
}

/**
 * Payload's adapter turns its own transactions off, silently, when the connection string
 * names no replica set (even when the server is a member): every admin-panel save would
 * then be several non-atomic writes. Refused instead.
 */
export function requireReplicaSetInUri(client: Pick<MongoClient, 'options'>): void {
  if (!client.options.replicaSet) {
    throw new ReplicaSetRequired('DATABASE_URI has no replicaSet=<name> parameter, so Payload would save without transactions')
  }
}

/**
 * Refuses to start when Payload's adapter runs its saves without transactions on a replica
 * set (`transactionOptions: false`, set by the adapter when the URI names no replica set, or
 * by configuration): every admin-panel save would be several non-atomic writes.
 */
export function requirePayloadTransactions(payload: Pick<Payload, 'db'>): void {
  const options: unknown = (payload.db as { transactionOptions?: unknown }).transactionOptions
  if (options === false || options === undefined) {
    throw new ReplicaSetRequired("Payload's MongoDB adapter has its transactions turned off, so its saves would not be atomic")
  }
}

/**
 * Every transaction's concerns, ours and Payload's (issue 55.8): it reads one snapshot, and its
 * commit is acknowledged once a majority holds it, so a failover cannot roll back a write whose
 * process already answered it (on a set with an arbiter the default would be w:1).
 */
export const TRANSACTION_OPTIONS = { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } } as const satisfies TransactionOptions

const checked = new WeakSet<Db>()

export async function inTransaction<T>(payload: Payload, work: (tx: Tx) => Promise<T>): Promise<T> {
  const db = nativeDb(payload)
  if (!checked.has(db)) {
    await requireReplicaSet(db)
    checked.add(db)
  }
  const client = nativeClient(payload)
  return retryTransient(async () => {
    const session = client.startSession()
    const transactionID = `raw-${randomUUID()}`
    payload.db.sessions[transactionID] = session
    try {
      session.startTransaction(TRANSACTION_OPTIONS)
      let result: T
      try {
        result = await work({ session, req: { transactionID }, db })
      } catch (err) {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined)
        throw err
      }
      await commitWithRetry(session)
      return result
    } finally {
      delete payload.db.sessions[transactionID]
      await session.endSession().catch(() => undefined)
    }
  }, isTransient)
}
