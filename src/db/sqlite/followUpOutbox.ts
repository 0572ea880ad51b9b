/**
 * The follow-up outbox's table on SQLite (a raw_ table, a migration's: src/db/sqlite/migrations)
 * and its reads. Its writes are plans (src/db/workflow/followUpOutbox.ts, ./planApplier): jobs
 * are queued in the decision's own transaction, and a claim is one UPDATE … RETURNING under the
 * write lock, so of any number of connections or processes exactly one gets a given row.
 */
import type { FollowUpDepth, FollowUpKind, FollowUpRow, FollowUpStatus } from '../moderationTypes'
import { connection } from './connection'

type Db = ReturnType<typeof connection>

/** The service's connection, where the outbox lives. */
export function outboxDb(file: string): Db {
  return connection(file)
}

type StoredRow = {
  id: string
  content_id: string
  kind: FollowUpKind
  status: FollowUpStatus
  attempts: number
  claimed_by: string | null
  next_run_at: number
  last_error: string | null
}

export function listFollowUpsSqlite(file: string, contentId: string): FollowUpRow[] {
  const rows = outboxDb(file)
    .prepare(
      `SELECT id, content_id, kind, status, attempts, claimed_by, next_run_at, last_error
       FROM raw_follow_ups WHERE content_id = ? ORDER BY created_at, kind`,
    )
    .all(contentId) as StoredRow[]
  return rows.map((r) => ({
    id: r.id,
    contentId: r.content_id,
    kind: r.kind,
    status: r.status,
    attempts: Number(r.attempts),
    claimedBy: r.claimed_by,
    nextRunAt: new Date(Number(r.next_run_at)),
    lastError: r.last_error,
  }))
}

/** Counts by state for the metrics scrape: one pass over the (status, next_run_at) index. */
export function followUpDepthSqlite(file: string, now: Date): FollowUpDepth {
  const row = outboxDb(file)
    .prepare(
      `SELECT
         coalesce(sum(status = 'queued' AND (claimed_until IS NULL OR claimed_until < ?)), 0),
         coalesce(sum(status = 'queued' AND claimed_until >= ?), 0),
         coalesce(sum(status = 'failed'), 0)
       FROM raw_follow_ups WHERE status IN ('queued', 'failed')`,
    )
    .raw(true)
    .get(now.getTime(), now.getTime()) as [number, number, number]
  return { queued: Number(row[0]), running: Number(row[1]), failed: Number(row[2]) }
}
