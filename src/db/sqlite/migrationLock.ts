/**
 * The SQLite migration lock, across processes: SQLite's own write lock on a small lock
 * database beside the data file (`<file>-migrations.lock`), taken with BEGIN IMMEDIATE and
 * held, without writing anything, until the work is done. A separate file, because the
 * migrations write the data file (a lock held there would block them). The operating system
 * drops the lock with its process, so a migrator that crashed never leaves it behind, and no
 * lease has to outlast a long migration. It is polled without blocking the event loop
 * (busy_timeout 0, then a timer). The holder writes who it is beside it (`<lock>.holder`),
 * so waiters can say whom they wait for.
 */
import Database from 'libsql'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'

import { logger } from '../../platform/logging'

const POLL_MS = 100
/** A waiter repeats its line this often while the same holder keeps the lock. */
const REMIND_MS = 30_000
/** How long a waiter gives a new holder to write its name before saying it does not know it. */
const NAME_GRACE_MS = 1000

export type LockHolder = { pid: number; host: string; since: string }

export const migrationLockFile = (file: string): string => `${file}-migrations.lock`
const holderFile = (lockFile: string) => `${lockFile}.holder`

function readHolder(lockFile: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(holderFile(lockFile), 'utf8')) as LockHolder
  } catch {
    return null
  }
}

const isBusy = (err: unknown): boolean =>
  (err as { code?: unknown })?.code === 'SQLITE_BUSY' || /database is locked/i.test(String((err as Error)?.message))

/**
 * Held connections, strongly referenced: were a holder's work pending on nothing reachable,
 * its connection could be garbage collected, closed, and the lock silently released.
 */
const holding = new Set<InstanceType<typeof Database>>()

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Takes the lock (waiting as long as another process holds it), runs `work`, releases it. */
export async function withSqliteMigrationLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lockFile = migrationLockFile(file)
  const lock = new Database(lockFile)
  try {
    lock.exec('PRAGMA busy_timeout = 0')
    const started = Date.now()
    let reported: string | undefined
    let reportedAt = 0
    for (;;) {
      try {
        lock.exec('BEGIN IMMEDIATE')
        break
      } catch (err) {
        if (!isBusy(err)) throw err
      }
      const holder = readHolder(lockFile)
      const key = holder ? `${holder.host}:${holder.pid}:${holder.since}` : 'unknown'
      const now = Date.now()
      if ((holder || now - started >= NAME_GRACE_MS) && (key !== reported || now - reportedAt >= REMIND_MS)) {
        logger().info({ holder, waitedMs: now - started }, 'migrations.waiting')
        reported = key
        reportedAt = now
      }
      await sleep(POLL_MS)
    }
    holding.add(lock)
    const me: LockHolder = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() }
    writeFileSync(holderFile(lockFile), JSON.stringify(me))
    logger().info({ waitedMs: Date.now() - started }, 'migrations.lock_acquired')
    try {
      return await work()
    } finally {
      // The name goes first: the next holder writes its own only once the lock is released.
      rmSync(holderFile(lockFile), { force: true })
      lock.exec('ROLLBACK')
      logger().info({}, 'migrations.lock_released')
    }
  } finally {
    holding.delete(lock)
    lock.close()
  }
}
