/**
 * The service's one way to the SQLite file for its own SQL (reads, guarded writes,
 * transactions, start-up steps): synchronous (libsql's better-sqlite3 API) with a
 * prepared-statement cache, so a hot read is bind + step with no re-parse. Payload keeps
 * its own client for its own operations; WAL lets each read while the other writes, and
 * Payload's SQLite writes are single autocommit statements, so a synchronous wait on its
 * write lock is short. Table names come from ./tables. The search's readers (./search) see it as
 * a SqlReader: rows as arrays, through the prepared-statement cache.
 */
import Database from 'libsql'

/** How long a writer waits for another process's write lock before SQLITE_BUSY (busy_timeout; ./writeLock waits on a timer instead). */
export const BUSY_TIMEOUT_MS = 5000

type Db = InstanceType<typeof Database>
type Statement = Database.Statement<unknown[]>

/** SQLite's own trigger (1,000 pages of 4 KiB), as bytes of log file. */
export const CHECKPOINT_BYTES = 4 * 1024 * 1024

/**
 * For every connection that writes in a serving process (this one, and the write path's, ./writes,
 * whose checkpoints and syncs rely on it): no checkpoint inside a commit; the log's file cut back
 * after a restart; synchronous = NORMAL, so a COMMIT writes the log without syncing it on this
 * thread (./writes/walSync syncs it off the thread before the write is answered).
 */
export const SERVING_WAL_PRAGMAS = ['PRAGMA wal_autocheckpoint = 0', `PRAGMA journal_size_limit = ${CHECKPOINT_BYTES}`, 'PRAGMA synchronous = NORMAL']

/** Page cache sizes in KiB (negative, as PRAGMA cache_size takes them). */
const READ_CACHE = -16384
const BULK_CACHE = -262144

export function sqliteFileOf(uri: string): string {
  return uri.replace(/^file:/, '')
}

/** Kept prepared statements by their SQL, at most `limit` (all dropped when full: the shapes in use come back at once). */
export function keptStatement<S>(kept: Map<string, S>, sql: string, prepare: (sql: string) => S, limit = 1000): S {
  let stmt = kept.get(sql)
  if (!stmt) {
    stmt = prepare(sql)
    if (kept.size >= limit) kept.clear()
    kept.set(sql, stmt)
  }
  return stmt
}

/** The service's connection to one file, opened at its first use, and its prepared statements. */
export class ServiceConnection {
  private db: Db | undefined
  private readonly statements = new Map<string, Statement>()
  /** The search's readers' view of it. */
  readonly reader: SqlReader

  constructor(readonly file: string) {
    const open = () => this.handle
    this.reader = {
      get: (sql, args = []) => call(this.statement(sql), 'get', args),
      all: (sql, args = []) => call(this.statement(sql), 'all', args),
      run: (sql, args = []) => void call(this.statement(sql), 'run', args),
      exec: (sql) => void this.handle.exec(sql),
      get handle() {
        return open()
      },
    }
  }

  /** The open connection (opened again after a close). */
  get handle(): Db {
    if (this.db) return this.db
    const db = new Database(this.file)
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    // Reads go through SQLite's page cache (bounded, counted in RSS) and the kernel's file
    // cache (not counted); a memory map would put the whole database file in RSS.
    db.exec(`PRAGMA cache_size = ${READ_CACHE}`)
    db.exec('PRAGMA mmap_size = 0')
    for (const pragma of SERVING_WAL_PRAGMAS) db.exec(pragma)
    return (this.db = db)
  }

  /** A kept prepared statement in raw (array-row) mode. */
  statement(sql: string): Statement {
    return keptStatement(this.statements, sql, (text) => {
      const stmt = this.handle.prepare(text)
      if (stmt.reader) stmt.raw(true)
      return stmt
    })
  }

  /**
   * Runs a bulk write with a 256 MiB page cache (index and text-index pages stay in memory
   * instead of being re-read and re-written per row), then gives the memory back.
   */
  withBulkCache<T>(work: () => T): T {
    const db = this.handle
    db.exec(`PRAGMA cache_size = ${BULK_CACHE}`)
    try {
      return work()
    } finally {
      db.exec(`PRAGMA cache_size = ${READ_CACHE}`)
    }
  }

  /**
   * Closes the connection (graceful shutdown, a script's end); the next use opens it again. First
   * the write-ahead log is folded into the file and emptied, if nothing else is reading it:
   * without waiting (another process's reads keep it for later), so a bulk seed does not leave a
   * log as large as the file behind for every later reader to search.
   */
  close(): void {
    this.statements.clear()
    try {
      this.db?.exec('PRAGMA busy_timeout = 0')
      this.db?.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      /* busy or read-only: the log stays, as it would have */
    }
    this.db?.close()
    this.db = undefined
  }
}

/** One per file, made at its first use (as ./writes' writesTo). */
const byFile = new Map<string, ServiceConnection>()

export function serviceConnection(file: string): ServiceConnection {
  let conn = byFile.get(file)
  if (!conn) byFile.set(file, (conn = new ServiceConnection(file)))
  return conn
}

/** The service's open connection to `file`. */
export function connection(file: string): Db {
  return serviceConnection(file).handle
}

/** Closes the service's connection to `file` (ServiceConnection.close). */
export function closeConnection(file: string): void {
  byFile.get(file)?.close()
}

/** A kept prepared statement in raw (array-row) mode, on the service's connection to `file`. */
export function statement(file: string, sql: string): Statement {
  return serviceConnection(file).statement(sql)
}

/** Whether the file has this table (start-up steps that run before or between migrations). */
export function tableExists(file: string, name: string): boolean {
  return statement(file, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined
}

/** ServiceConnection.withBulkCache on the service's connection to `file`. */
export function withBulkCache<T>(file: string, work: () => T): T {
  return serviceConnection(file).withBulkCache(work)
}

export type SqlReader = {
  /** The first row, as an array. */
  get(sql: string, args?: unknown[]): unknown[] | undefined
  all(sql: string, args?: unknown[]): unknown[][]
  run(sql: string, args?: unknown[]): void
  exec(sql: string): void
  /** The connection object, to tell a reopened connection from the one before. */
  readonly handle: object
}

const call = <T>(stmt: Statement, method: 'get' | 'all' | 'run', args: unknown[]): T =>
  (stmt[method] as (...a: unknown[]) => T).apply(stmt, args)

/** The service's own connection to `file`, as the search's readers use it. */
export function serviceReader(file: string): SqlReader {
  return serviceConnection(file).reader
}
