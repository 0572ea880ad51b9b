/**
 * Rows stored before URL keys existed get theirs (duplicates an ordinal after the original), once,
 * under the migration lock; every write since sets the key itself. It ran at every start before,
 * a scan of the whole collection (the unique URL-key index is partial over keyed rows). The
 * writing process moves its own content generation; the others see the updates on their change
 * streams. Idempotent (a row is keyed only while it has no key), no session.
 */
import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-mongodb'

import { generationsOf } from '../../freshness'
import { payloadCollection } from '../native'
import type { ContentDoc } from '../documents'
import { backfillUrlKeys } from '../urlKeys'

export async function up({ payload }: MigrateUpArgs): Promise<void> {
  const keyed = await backfillUrlKeys(payloadCollection<ContentDoc>(payload, 'content'))
  if (keyed > 0) generationsOf(payload.db).changed(['content'])
}

export async function down(_: MigrateDownArgs): Promise<void> {
  // Keys are derived data every later write keeps: nothing to undo.
}
