/**
 * SQLite's write lock, waited for on a timer instead of inside the native call. A connection
 * with busy_timeout sleeps in SQLite's busy handler while another process holds the lock, and
 * that sleep is the serving thread's: with two workers, one worker's approval or rate-limit hit
 * stood its whole event loop still while the other worker's save, its statements taking turns
 * with that worker's reads, held the lock (docs/benchmarks.md, *The change feed's look, list
 * items kept as JSON, another process's lock on a timer, …*). Here BEGIN IMMEDIATE is tried with
 * busy_timeout 0 and, while another process holds the lock, tried again after a short wait, for
 * as long as busy_timeout would have slept; the loop serves meanwhile. This process's own writers
 * never meet here (they queue on its write gate, ./writes/writeGate): the waits are for others.
 */
import type { Database as Db } from 'libsql'
import { setTimeout as sleep } from 'node:timers/promises'

import { BUSY_TIMEOUT_MS } from './connection'

/**
 * The first wait between tries, doubled up to the last (SQLite's own handler sleeps 1 to 100 ms).
 * The last is short: a waiter learns of the release only at its next try, and the holder's process
 * may take the lock again meanwhile; a hold is a few turns of the loop, so a 16 ms wait was often a
 * quarter of the whole wait (docs/benchmarks.md, *Writes first in a turn*). A try is three
 * statements of microseconds.
 */
const FIRST_WAIT_MS = 1
const LONGEST_WAIT_MS = 4

/** The wait before the next try, after `wait` ms before this one. */
export const nextLockWait = (wait: number): number => Math.min(wait * 2, LONGEST_WAIT_MS)

const isBusy = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 'SQLITE_BUSY'

/**
 * Opens a write transaction on `db` (BEGIN IMMEDIATE), waiting on timers while another process
 * holds the lock; rejects with SQLITE_BUSY after BUSY_TIMEOUT_MS. The connection's busy_timeout
 * is BUSY_TIMEOUT_MS again afterwards, for its statements inside the transaction.
 */
export async function beginImmediate(db: Db, patienceMs = BUSY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + patienceMs
  let wait = FIRST_WAIT_MS
  for (;;) {
    db.exec('PRAGMA busy_timeout = 0')
    try {
      db.exec('BEGIN IMMEDIATE')
      return
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err
    } finally {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    }
    await sleep(wait)
    wait = nextLockWait(wait)
  }
}

/**
 * `body` in one write transaction on `db`, begun as beginImmediate begins it: committed when it
 * returns, rolled back when it throws (the throw passes on). `body` is synchronous, so nothing
 * else of this process writes on the connection between its statements.
 */
export async function immediateTransaction<T>(db: Db, body: () => T): Promise<T> {
  await beginImmediate(db)
  try {
    const result = body()
    db.exec('COMMIT')
    return result
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK')
    throw err
  }
}
