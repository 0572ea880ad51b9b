/**
 * Every list's sort from an index (src/db/mongo/indexes.ts): the list index and the tag index
 * gain keys (the title; status, isActive and _id), the admin list indexes gain _id, and the
 * submitted-date sorts get an index of their own. ensureServiceIndexes builds what is missing
 * and rebuilds an index of ours whose definition changed (same name, other keys); a database
 * that ran the first index migration runs this one for the new definitions. Idempotent, no
 * session (index builds cannot run in one).
 */
import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-mongodb'

import { ensureServiceIndexes } from '../indexes'
import { collectionName, nativeDb } from '../native'

export async function up({ payload }: MigrateUpArgs): Promise<void> {
  await ensureServiceIndexes(payload, nativeDb(payload))
}

export async function down({ payload }: MigrateDownArgs): Promise<void> {
  // The earlier definitions are not rebuilt: a list without its index is slower, not wrong.
  await nativeDb(payload)
    .collection(collectionName(payload, 'content'))
    .dropIndex('raw_content_submitted')
    .catch(() => undefined)
}
