import type { PayloadRequest } from 'payload'

import type { Domain } from '../freshness'

/** What the engine-neutral transaction helpers (src/db/payloadWrite.ts, src/services/domainVersions.ts) ask of an engine. */
export type TransactionPort = {
  /** The engine aborted a transaction and running it again is safe (MongoDB: TransientTransactionError). */
  isTransient(err: unknown): boolean
  /** The unique field a failed write collided on (Payload's ValidationError, or the engine's own report), else undefined. */
  uniqueViolationField(err: unknown): string | undefined
  /**
   * A Payload save in `req`'s transaction changed `domain` (a collection hook): SQLite needs
   * nothing (the write gate's release reads the counters); MongoDB moves this process's
   * generation once that transaction commits.
   */
  noteDomainWrite(req: PayloadRequest, domain: Domain, rows?: readonly string[]): Promise<void>
  /**
   * A save in `req` adds a child to the list of `collection` under `parentField` = `parentId` (none:
   * the collection's top level), which a reorder checks: MongoDB writes the list's guard in the
   * save's transaction, so a concurrent reorder conflicts instead of missing it; SQLite needs
   * nothing (writers lock before they read).
   */
  noteSiblingWrite(req: PayloadRequest, collection: string, parentField?: string, parentId?: string | null): Promise<void>
}
