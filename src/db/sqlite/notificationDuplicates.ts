/**
 * Notifications are unique per (content, kind) (collections/Notifications.ts). Databases from
 * builds before the outbox can hold duplicates (two processes ran the same job), on which
 * schema sync's CREATE UNIQUE INDEX would fail. Before the sync, while that index does not
 * exist yet, the later copies are deleted (the earliest of each pair is kept). Idempotent.
 */
import { connection, tableExists } from './connection'
import { TABLES } from './tables'

const UNIQUE_INDEX = 'content_kind_idx'

/** Returns how many duplicates were deleted. */
export function dropDuplicateNotificationsSqlite(file: string): number {
  const db = connection(file)
  if (!tableExists(file, TABLES.notifications)) return 0
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(UNIQUE_INDEX) !== undefined) return 0
  const result = db
    .prepare(
      `DELETE FROM "${TABLES.notifications}" WHERE rowid NOT IN (
         SELECT min(rowid) FROM "${TABLES.notifications}" GROUP BY content_id, kind)`,
    )
    .run()
  return Number(result.changes)
}
