/**
 * The service's MongoDB indexes beside Payload's own (src/db/mongo/indexes.ts: the text index,
 * the list indexes, the unique URL key, the rate-limit TTL), built and awaited; an older
 * build's index of ours with another definition is dropped and rebuilt (IndexOptionsConflict
 * 85, IndexKeySpecsConflict 86, a second text index), never one of Payload's. First, copies
 * of notifications that double-run jobs of older builds left are deleted, so that Payload's
 * unique (content, kind) index, built once the migrations have run, can be.
 * Index builds cannot run inside a transaction on collections that exist, so the session is
 * not used: every step is idempotent and the whole migration runs again if it fails.
 */
import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-mongodb'

import { ensureServiceIndexes, serviceIndexes } from '../indexes'
import { collectionName, nativeDb } from '../native'
import { dropDuplicateNotificationsMongo } from '../notificationDuplicates'

export async function up({ payload }: MigrateUpArgs): Promise<void> {
  const db = nativeDb(payload)
  await dropDuplicateNotificationsMongo(db, collectionName(payload, 'notifications'))
  await ensureServiceIndexes(payload, db)
}

export async function down({ payload }: MigrateDownArgs): Promise<void> {
  const db = nativeDb(payload)
  for (const { collection, index } of serviceIndexes(collectionName(payload, 'content'))) {
    await db.collection(collection).dropIndex(index.name).catch(() => undefined)
  }
}
