/**
 * The follow-up outbox on SQLite: a raw_ table (a migration's, src/db/migrations/sqlite) on the
 * service's synchronous connection. Jobs are inserted in the same BEGIN IMMEDIATE transaction as the
 * status move (src/db/sqlite/moderation.ts), so an approval never commits without them.
 * A claim is one UPDATE … RETURNING: SQLite takes the write lock before the statement reads,
 * so of any number of connections or processes exactly one gets a given row.
 */
import { newHexId } from '../ids'
import type { ClaimedFollowUp, ClaimRequest, FollowUpDepth, FollowUpFailure, FollowUpKind, FollowUpRow, FollowUpStatus } from '../moderationTypes'
import { connection } from './connection'

type Db = ReturnType<typeof connection>

/** The service's connection, where the outbox lives. */
export function outboxDb(file: string): Db {
  return connection(file)
}

/** Inside a transaction on `db`: queues the jobs; an existing (item, kind) job is kept as is. */
export function enqueueFollowUpsSqlite(db: Db, contentId: string, kinds: FollowUpKind[], at: Date): void {
  const insert = db.prepare(
    `INSERT INTO raw_follow_ups (id, content_id, kind, status, attempts, next_run_at, created_at, updated_at)
     VALUES (?, ?, ?, 'queued', 0, ?, ?, ?)
     ON CONFLICT (content_id, kind) DO NOTHING`,
  )
  for (const kind of kinds) insert.run(newHexId(), contentId, kind, at.getTime(), at.toISOString(), at.toISOString())
}

/** Inside a transaction on the service's connection: the item's jobs still queued are dropped (its soft delete). */
export function cancelFollowUpsSqlite(file: string, contentId: string): void {
  outboxDb(file).prepare("DELETE FROM raw_follow_ups WHERE content_id = ? AND status = 'queued'").run(contentId)
}

type ClaimedRow = { id: string; content_id: string; kind: FollowUpKind; attempts: number }

/** Claims the oldest due job whose previous claim (if any) has lapsed; null when none is due. */
export function claimFollowUpSqlite(file: string, claim: ClaimRequest): ClaimedFollowUp | null {
  const now = claim.now.getTime()
  const row = outboxDb(file)
    .prepare(
      `UPDATE raw_follow_ups
         SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1, updated_at = ?
       WHERE id = (SELECT id FROM raw_follow_ups
                   WHERE status = 'queued' AND next_run_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
                   ORDER BY next_run_at LIMIT 1)
         AND status = 'queued' AND (claimed_until IS NULL OR claimed_until < ?)
       RETURNING id, content_id, kind, attempts`,
    )
    .get(claim.worker, now + claim.leaseMs, claim.now.toISOString(), now, now, now) as ClaimedRow | undefined
  return row ? { id: row.id, contentId: row.content_id, kind: row.kind, attempts: Number(row.attempts) } : null
}

/** Marks the job done, if this worker still holds it; false if its claim was lost. */
export function completeFollowUpSqlite(file: string, id: string, worker: string, at: Date): boolean {
  const result = outboxDb(file)
    .prepare(
      `UPDATE raw_follow_ups SET status = 'done', claimed_until = NULL, last_error = NULL, updated_at = ?
       WHERE id = ? AND claimed_by = ? AND status = 'queued'`,
    )
    .run(at.toISOString(), id, worker)
  return Number(result.changes) === 1
}

/** Records a failure: back in the queue at `retryAt`, or failed for good. */
export function failFollowUpSqlite(file: string, f: FollowUpFailure): boolean {
  const result = outboxDb(file)
    .prepare(
      `UPDATE raw_follow_ups
         SET status = ?, next_run_at = coalesce(?, next_run_at), claimed_until = NULL, last_error = ?, updated_at = ?
       WHERE id = ? AND claimed_by = ? AND status = 'queued'`,
    )
    .run(f.retryAt ? 'queued' : 'failed', f.retryAt?.getTime() ?? null, f.error, f.at.toISOString(), f.id, f.worker)
  return Number(result.changes) === 1
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
