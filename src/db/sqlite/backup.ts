/**
 * Online backup and offline restore of the SQLite file.
 *
 * Backup: `VACUUM INTO` (libsql's Database#backup is not implemented) copies the database as
 * one read transaction sees it: a consistent snapshot while the server keeps reading and
 * writing (WAL: readers never block writers). It runs on its own connection so the
 * service's prepared statements are untouched. The copy is written beside the target and
 * renamed into place only after it passed `PRAGMA integrity_check`.
 *
 * Restore: only with no other connection open (the server stopped): an exclusive lock is
 * taken on the live file first and held until the verified copy has been renamed over it.
 */
import { existsSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'

import Database from 'libsql'

import { vacuumWorker } from './backupWorker'
import { libsqlWorker } from './writes'
import { TABLES } from './tables'

type Db = InstanceType<typeof Database>

/** Tables a backup of this service must hold (Payload's and the service's own). */
const EXPECTED_TABLES = [TABLES.content, TABLES.tags, 'users', 'raw_content_fts', 'raw_content_fts_hidden', 'raw_content_tags', 'raw_versions']

export class BackupError extends Error {}

function open(file: string, readonly = false): Db {
  const db = new Database(file, readonly ? { readonly: true } : {})
  db.exec('PRAGMA busy_timeout = 5000')
  return db
}

/** Bytes of live pages: what a VACUUM INTO copy grows to (for progress). */
export function liveBytes(file: string): number {
  const db = open(file, true)
  try {
    const n = (q: string) => Number((db.prepare(q).raw(true).get() as unknown[])[0])
    return (n('PRAGMA page_count') - n('PRAGMA freelist_count')) * n('PRAGMA page_size')
  } finally {
    db.close()
  }
}

/** Opens a candidate file read-only: a database that passes integrity_check and has the expected tables. */
export function verifyDatabase(file: string): { tables: number; content: number } {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`)
  let db: Db
  try {
    db = open(file, true)
  } catch (err) {
    throw new BackupError(`${file} is not a SQLite database (${err instanceof Error ? err.message : String(err)})`)
  }
  try {
    let check: unknown[]
    try {
      check = db.prepare('PRAGMA integrity_check').raw(true).all() as unknown[]
    } catch (err) {
      throw new BackupError(`${file} is not a SQLite database (${err instanceof Error ? err.message : String(err)})`)
    }
    const verdict = check.map((r) => (r as unknown[])[0]).join('; ')
    if (verdict !== 'ok') throw new BackupError(`${file} fails integrity_check: ${verdict}`)
    const names = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").raw(true).all() as unknown[][]).map((r) => String(r[0])))
    const missing = EXPECTED_TABLES.filter((t) => !names.has(t))
    if (missing.length) throw new BackupError(`${file} is not a backup of this service (missing tables: ${missing.join(', ')})`)
    const content = Number((db.prepare(`SELECT count(*) FROM ${TABLES.content}`).raw(true).get() as unknown[])[0])
    return { tables: names.size, content }
  } finally {
    db.close()
  }
}

/**
 * VACUUM INTO on a worker thread, so this thread can report the copy's growth while SQLite
 * writes it (the statement itself offers no progress).
 */
function vacuumInto(source: string, target: string, onBytes?: (bytes: number) => void): Promise<void> {
  const worker = libsqlWorker(vacuumWorker, { source, target })
  const timer = onBytes
    ? setInterval(() => {
        try {
          onBytes(statSync(target).size)
        } catch { /* not created yet */ }
      }, 250)
    : undefined
  return new Promise<void>((resolve, reject) => {
    worker.once('error', reject)
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new BackupError(`backup worker exited with ${code}`))))
  }).finally(() => clearInterval(timer))
}

/** Copies the live database to `target` (must not exist), verified. Safe while the server runs. */
export async function backupDatabase(
  source: string,
  target: string,
  onBytes?: (bytes: number) => void,
): Promise<{ bytes: number; content: number }> {
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`)
  if (existsSync(target)) throw new BackupError(`${target} already exists; choose a new file`)
  const partial = path.join(path.dirname(path.resolve(target)), `.${path.basename(target)}.partial-${process.pid}`)
  rmSync(partial, { force: true })
  try {
    await vacuumInto(source, partial, onBytes)
  } catch (err) {
    rmSync(partial, { force: true })
    throw err
  }
  try {
    const { content } = verifyDatabase(partial)
    renameSync(partial, target)
    return { bytes: statSync(target).size, content }
  } catch (err) {
    rmSync(partial, { force: true })
    throw err
  }
}

/**
 * Puts a backup in place of the live file. Refuses while any other connection has the
 * database open (a running server), and refuses a file that is not a verified backup.
 * The old file's -wal and -shm are removed: they belong to the replaced database.
 */
export function restoreDatabase(backup: string, live: string): { content: number } {
  const { content } = verifyDatabase(backup)
  const staging = path.join(path.dirname(path.resolve(live)), `.${path.basename(live)}.restoring-${process.pid}`)
  let guard: Db | undefined
  if (existsSync(live)) {
    guard = new Database(live)
    try {
      guard.exec('PRAGMA busy_timeout = 0')
      // In WAL mode every open connection holds a shared lock; exclusive mode needs none open.
      guard.exec('PRAGMA locking_mode = EXCLUSIVE')
      guard.exec('BEGIN EXCLUSIVE')
      guard.prepare('SELECT count(*) FROM sqlite_master').get()
    } catch (err) {
      guard.close()
      const why = err instanceof Error ? err.message : String(err)
      throw new BackupError(`${live} is in use (is the server running?); stop it before restoring [${why}]`)
    }
  }
  try {
    rmSync(staging, { force: true })
    // Copy through SQLite so the staged file is a clean, self-contained database.
    const src = open(backup, true)
    try {
      src.prepare('VACUUM INTO ?').run(staging)
    } finally {
      src.close()
    }
    renameSync(staging, live)
  } catch (err) {
    rmSync(staging, { force: true })
    release(guard)
    throw err
  }
  // Closing the guard may touch the old file's -wal/-shm by name: release first, then remove them.
  release(guard)
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${live}${suffix}`, { force: true })
  return { content }
}

function release(guard: Db | undefined): void {
  try {
    guard?.exec('ROLLBACK')
  } catch { /* nothing open */ }
  guard?.close()
}
