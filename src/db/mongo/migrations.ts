/**
 * MongoDB's start-up schema step: the checked-in migrations (src/db/migrations/mongodb: the
 * service's indexes, data clean-ups Payload's indexes need) under the cross-process lock
 * (./migrationLock). Payload's own indexes follow its collections and are built after them.
 */
import type { Payload } from 'payload'

import { migrations } from '../migrations/mongodb'
import { migrateUnderLock, type MigrationFile } from '../migrationRun'
import { withMongoMigrationLock } from './migrationLock'
import { nativeDb } from './native'

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

/** Pending migrations, then `afterMigrate`, holding the lock. */
export async function migrateMongo(payload: Payload, afterMigrate?: () => Promise<void>): Promise<void> {
  await migrateUnderLock(payload, {
    migrations: MONGO_MIGRATIONS,
    lock: (work) => withMongoMigrationLock(nativeDb(payload), work),
    applied: () => appliedMongo(payload),
    afterMigrate,
  })
}
