/**
 * MongoDB's start-up schema step: the checked-in migrations (src/db/mongo/migrations: the
 * service's indexes, data clean-ups Payload's indexes need) under the cross-process lock
 * (./migrationLock). Payload's own indexes follow its collections and are built after them.
 */
import type { Payload } from 'payload'

import { migrations } from './migrations'
import { migrateUnderLock, type MigrationFile } from '../migrationRun'
import type { Db } from 'mongodb'

import { serverCode } from './driverErrors'
import { OUTBOX_COLLECTION } from './followUpOutbox'
import { RATE_LIMIT_COLLECTION } from './indexes'
import { withMongoMigrationLock } from './migrationLock'
import { nativeDb } from './native'
import { SIBLING_GUARDS } from './siblingGuards'
import { TAG_RENAME_RUNS } from './tagRename'

export const MONGO_MIGRATIONS: readonly MigrationFile[] = migrations

/** The migrations this database has run (Payload's dev marker, batch -1, is never one). */
async function appliedMongo(payload: Payload): Promise<Set<string>> {
  const found = await payload.find({
    collection: 'payload-migrations',
    pagination: false,
    where: { batch: { not_equals: -1 } },
    overrideAccess: true,
  })
  return new Set(found.docs.map((d) => String(d.name)))
}

/**
 * The service's own collections that transactions write (the follow-ups outbox, sibling guards, a
 * rename's run) or that take writes at once (rate limits): created before any transaction, holding
 * the lock. A collection created implicitly inside a transaction fails on servers before 4.4, and
 * conflicts with an index build or another transaction creating it (Payload's own collections are
 * created by mongoose as their models initialise).
 */
export const SERVICE_COLLECTIONS = [OUTBOX_COLLECTION, SIBLING_GUARDS, TAG_RENAME_RUNS, RATE_LIMIT_COLLECTION] as const
const NAMESPACE_EXISTS = 48

export async function ensureServiceCollections(db: Db): Promise<void> {
  for (const name of SERVICE_COLLECTIONS) {
    try {
      await db.createCollection(name)
    } catch (err) {
      if (serverCode(err) !== NAMESPACE_EXISTS) throw err
    }
  }
}

/** Pending migrations, then `afterMigrate`, holding the lock; the service's collections made first. */
export async function migrateMongo(payload: Payload, afterMigrate?: () => Promise<void>): Promise<void> {
  await migrateUnderLock(payload, {
    migrations: MONGO_MIGRATIONS,
    lock: (work) => withMongoMigrationLock(nativeDb(payload), work),
    applied: () => appliedMongo(payload),
    beforeMigrate: () => ensureServiceCollections(nativeDb(payload)),
    afterMigrate,
  })
}
