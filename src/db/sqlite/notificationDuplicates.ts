/**
 * Notifications are unique per (content, kind) (collections/Notifications.ts). Databases from
 * builds before the outbox can hold duplicates (two processes ran the same job), on which
 * schema sync's CREATE UNIQUE INDEX would fail. Before the sync, while that index does not
 * exist yet, the later copies are deleted (the earliest of each pair is kept). Idempotent.
 */
import type { Payload } from 'payload'

import { libsqlClient, tableExists } from './payloadClient'

const UNIQUE_INDEX = 'content_kind_idx'

/** Returns how many duplicates were deleted. */
export async function dropDuplicateNotificationsSqlite(payload: Payload): Promise<number> {
  const client = libsqlClient(payload.db)
  if (!client || !(await tableExists(client, 'notifications'))) return 0
  const indexed = await client.execute({ sql: "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", args: [UNIQUE_INDEX] })
  if (indexed.rows.length > 0) return 0
  const result = await client.execute(
    `DELETE FROM notifications WHERE rowid NOT IN (
       SELECT min(rowid) FROM notifications GROUP BY content_id, kind)`,
  )
  return result.rowsAffected
}
