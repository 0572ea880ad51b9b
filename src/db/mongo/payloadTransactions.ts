/**
 * Payload's own transactions on MongoDB (admin panel saves, Payload REST, Local API calls):
 * - the commit is sent again on UnknownTransactionCommitResult, never the writes (./commit);
 *   a transient failure of the whole save is retried by the caller (src/db/payloadWrite.ts);
 * - the collection hooks note which cached domains a save changed (src/services' domain write
 *   hooks, through noteDomainWrite), and this process's generations move once the save commits,
 *   so a client reads its own write at once; other processes see it through their change stream.
 * Nothing is written to a shared document inside the save's transaction.
 */
import type { ClientSession } from 'mongodb'
import type { DatabaseAdapterObj, PayloadRequest } from 'payload'

import { generationsOf } from '../freshness'
import type { Domain } from '../freshness'
import { commitWithRetry } from './commit'

type Sessions = Record<string, ClientSession | undefined>

type TransactionMethods = {
  sessions: Sessions
  commitTransaction: (id: string | number | Promise<string | number | null> | null) => Promise<void>
  rollbackTransaction: (id: string | number | Promise<string | number | null> | null) => Promise<void>
}

/**
 * Domains written in each open Payload transaction of this process, by transaction id, and the
 * content rows (null: a content write that named none, so every row counts as changed).
 */
const written = new Map<string, { domains: Set<Domain>; rows: Set<string> | null }>()

async function idOf(id: string | number | Promise<string | number | null> | null): Promise<string | undefined> {
  const resolved = id instanceof Promise ? await id : id
  return resolved == null ? undefined : String(resolved)
}

/** The transaction a save in `req` runs in (its id and session), or undefined outside one. */
export async function openTransactionOf(req: PayloadRequest): Promise<{ id: string; session: ClientSession } | undefined> {
  const id = await idOf(req.transactionID ?? null)
  const session = id === undefined ? undefined : (req.payload.db.sessions as Sessions | undefined)?.[id]
  return id !== undefined && session?.inTransaction() ? { id, session } : undefined
}

/** For collection hooks: the save in `req` changed `domain`; this process's generation moves at its commit. */
export async function noteDomainWriteMongo(req: PayloadRequest, domain: Domain, rows?: readonly string[]): Promise<void> {
  const id = (await openTransactionOf(req))?.id
  if (id === undefined) {
    // Not in a transaction: the write is already visible.
    generationsOf(req.payload.db).changed([domain], rows)
    return
  }
  let entry = written.get(id)
  if (!entry) written.set(id, (entry = { domains: new Set(), rows: new Set() }))
  entry.domains.add(domain)
  if (!rows) {
    if (domain === 'content' || domain === 'all_content') entry.rows = null
  } else if (entry.rows) for (const row of rows) entry.rows.add(row)
}

/** Replaces the adapter's commit and rollback (as @payloadcms/db-mongodb writes them, plus the above). */
function withCommitRetry(instance: TransactionMethods & object): void {
  instance.commitTransaction = async function commitTransaction(incoming) {
    const id = await idOf(incoming)
    if (id === undefined) return
    const session = this.sessions[id]
    const noted = written.get(id)
    written.delete(id)
    if (!session) return
    // Out of the registry first, so no other operation picks the session up while it ends.
    delete this.sessions[id]
    try {
      if (!session.inTransaction()) return
      await commitWithRetry(session)
    } finally {
      // Ended however the commit went (its retries run out, it was not in a transaction): a
      // session never ended holds its server session until the client closes.
      await session.endSession().catch(() => undefined)
    }
    if (noted) generationsOf(this).changed([...noted.domains], noted.rows ? [...noted.rows] : undefined)
  }
  instance.rollbackTransaction = async function rollbackTransaction(incoming) {
    const id = await idOf(incoming)
    if (id === undefined) return
    written.delete(id)
    const session = this.sessions[id]
    if (!session) return
    delete this.sessions[id]
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined)
    await session.endSession().catch(() => undefined)
  }
}

/** The adapter with the commit and rollback above. */
export function withPayloadTransactions(adapter: DatabaseAdapterObj): DatabaseAdapterObj {
  return {
    ...adapter,
    init: (args) => {
      const instance = adapter.init(args)
      withCommitRetry(instance as unknown as TransactionMethods & object)
      return instance
    },
  }
}
