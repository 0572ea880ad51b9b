/**
 * SQLite (libsql) primitives for identity: the atomic refresh-token claim and the
 * rate-limit counters. Raw SQL because both need a single-statement conditional write.
 */
import type { Payload } from 'payload'

import type { ClaimResult, GraceSuccessor, RateLimitHit } from '../authTypes'

type LibsqlClient = {
  execute(stmt: { sql: string; args: (string | number | null)[] } | string): Promise<{
    rows: Record<string, unknown>[]
    rowsAffected: number
  }>
}

type SqliteAdapterLike = { client: LibsqlClient; tableNameMap?: Map<string, string> }

const adapter = (payload: Payload) => payload.db as unknown as SqliteAdapterLike

/** Marks the token revoked only if it still is not: exactly one of concurrent callers wins. */
export async function claimRefreshTokenSqlite(
  payload: Payload,
  tokenHash: string,
  reason: string,
  now: Date,
  successor?: GraceSuccessor,
): Promise<ClaimResult> {
  const db = adapter(payload)
  const table = db.tableNameMap?.get('refresh-tokens') ?? 'refresh_tokens'
  const at = now.toISOString()
  const res = await db.client.execute({
    sql: `UPDATE "${table}" SET revoked_at = ?, revoked_reason = ?, updated_at = ?, grace_token = ?, grace_until = ?
      WHERE token_hash = ? AND revoked_at IS NULL`,
    args: [at, reason, at, successor?.sealed ?? null, successor?.until.toISOString() ?? null, tokenHash],
  })
  return { claimed: res.rowsAffected === 1 }
}

// The raw_ prefix keeps schema sync (src/db/sqliteSchema.ts) away from this table.
const CREATE_COUNTERS = `CREATE TABLE IF NOT EXISTS raw_rate_limits (
  key TEXT PRIMARY KEY NOT NULL,
  points INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
)`

const ready = new WeakMap<object, Promise<unknown>>()

/**
 * One hit on a fixed-window counter, atomically in one statement: a window that has ended
 * starts again at 1. Counters live in the database, so every process shares them and they
 * survive restarts.
 */
export async function hitRateLimitSqlite(
  payload: Payload,
  key: string,
  points: number,
  durationSeconds: number,
): Promise<RateLimitHit> {
  const db = adapter(payload)
  let table = ready.get(db.client)
  if (!table) {
    table = db.client.execute(CREATE_COUNTERS)
    ready.set(db.client, table)
  }
  await table
  const now = Date.now()
  const res = await db.client.execute({
    sql: `INSERT INTO raw_rate_limits (key, points, reset_at) VALUES (?, 1, ?)
      ON CONFLICT(key) DO UPDATE SET
        points = CASE WHEN raw_rate_limits.reset_at <= ? THEN 1 ELSE raw_rate_limits.points + 1 END,
        reset_at = CASE WHEN raw_rate_limits.reset_at <= ? THEN excluded.reset_at ELSE raw_rate_limits.reset_at END
      RETURNING points, reset_at`,
    args: [key, now + durationSeconds * 1000, now, now],
  })
  const row = res.rows[0]!
  const consumed = Number(row.points)
  const resetAt = Number(row.reset_at)
  // Now and then, drop windows that ended long ago so the table stays small.
  if (Math.random() < 0.01) {
    void db.client.execute({ sql: 'DELETE FROM raw_rate_limits WHERE reset_at < ?', args: [now - 86_400_000] }).catch(() => {})
  }
  return { allowed: consumed <= points, consumed, msBeforeReset: Math.max(0, resetAt - now) }
}
