/** Rate-limit counters on SQLite: one atomic upsert per hit on the service's connection. */
import type { RateLimitHit } from '../authTypes'
import { connection, statement } from './connection'
import { immediateTransaction } from './writeLock'
import { DAY_MS } from '../../platform/time'

// raw_rate_limits is created by a migration (src/db/sqlite/migrations).
const HIT = `INSERT INTO raw_rate_limits (key, points, reset_at) VALUES (?, 1, ?)
  ON CONFLICT(key) DO UPDATE SET
    points = CASE WHEN raw_rate_limits.reset_at <= ? THEN 1 ELSE raw_rate_limits.points + 1 END,
    reset_at = CASE WHEN raw_rate_limits.reset_at <= ? THEN excluded.reset_at ELSE raw_rate_limits.reset_at END
  RETURNING points, reset_at`

/**
 * One hit on a fixed-window counter, atomically in one statement: a window that has ended
 * starts again at 1. Counters live in the database, so every process shares them and they
 * survive restarts.
 */
export async function hitRateLimitSqlite(file: string, key: string, points: number, durationSeconds: number): Promise<RateLimitHit> {
  // Another process's write lock is waited for on a timer (./writeLock), not in the native call;
  // the clock is read once the lock is held.
  const { row, now } = await immediateTransaction(connection(file), () => {
    const now = Date.now()
    const row: unknown = statement(file, HIT).get(key, now + durationSeconds * 1000, now, now)
    // Now and then, drop windows that ended long ago so the table stays small.
    if (Math.random() < 0.01) statement(file, 'DELETE FROM raw_rate_limits WHERE reset_at < ?').run(now - DAY_MS)
    return { row, now }
  })
  if (!Array.isArray(row)) throw new Error('The rate-limit counter returned no row.')
  const consumed = Number(row[0])
  const resetAt = Number(row[1])
  return { allowed: consumed <= points, consumed, msBeforeReset: Math.max(0, resetAt - now) }
}
