/**
 * Payload's admin content list sorts {approvedAt: -1, createdAt: -1} (its defaultSort and the
 * adapter's fallback sort, timestamps on), which neither admin list index gave: every console list
 * page at a million items was a scan and a sort in memory (issue 55.3). The two admin list indexes
 * gain createdAt (src/db/mongo/indexes.ts); ensureServiceIndexes rebuilds an index of ours whose
 * definition changed. Idempotent, no session (index builds cannot run in one).
 */
import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-mongodb'

import { ensureServiceIndexes } from '../indexes'
import { nativeDb } from '../native'

export async function up({ payload }: MigrateUpArgs): Promise<void> {
  await ensureServiceIndexes(payload, nativeDb(payload))
}

export async function down(_args: MigrateDownArgs): Promise<void> {
  // The earlier definitions are not rebuilt: a list without its index is slower, not wrong.
}
