/**
 * The @libsql/client Client that Payload's SQLite adapter is given (the adapter's `connect` keeps a
 * client already on the instance: `@payloadcms/db-sqlite` 3.90.2 `dist/connect.js`, `if
 * (!this.client)`), so nothing of the library's objects is replaced at run time: this client
 * delegates to a stock one and differs in three ways (docs/architecture.md, "The SQLite write
 * path's wrappers"; pinned by test/db/sqliteWriteContract.test.ts):
 * - its connection is set up as every writing connection of a serving process is (WAL, busy
 *   timeout, no checkpoint inside a commit, synchronous NORMAL: ../connection) before its first
 *   statement, where the adapter would have set fewer of them itself;
 * - a write outside a transaction (`payload.db.updateOne` without a request, Payload's lock
 *   bookkeeping) is made a write transaction of its own, opened as Payload's are (next point): after
 *   this process's write gate, its BEGIN waiting for another process's lock on a timer
 *   (../writeLock). As an autocommit statement on the client's connection it waited in SQLite's
 *   busy handler, asleep on the serving thread, while another worker's save held the lock. Every
 *   statement runs in the loop's slices (platform/loopSlices);
 * - `transaction()` opens each write transaction after the write gate, on the write path's kept
 *   connection (./payloadWrites): @libsql/client 0.14.0's own hands its connection to the
 *   transaction and opens a new one without busy_timeout, left to garbage collection.
 */
import type { Client, InArgs, InStatement, Replicated, ResultSet, Transaction, TransactionMode } from '@libsql/client'
import { LibsqlError } from '@libsql/client'

import { inSlices } from '../../../platform/loopSlices'
import { BUSY_TIMEOUT_MS, SERVING_WAL_PRAGMAS } from '../connection'
import type { ReleaseWriteGate } from './writeGate'

const WRITE_STATEMENT = /^\s*(insert|update|delete|replace)\b/i
/** A read of the schema table: a connection reloads a schema another one changed (./payloadWrites reads it after each BEGIN). */
export const SCHEMA_READ = 'SELECT 1 FROM sqlite_master LIMIT 1'

const sqlOf = (stmt: InStatement | string): string => (typeof stmt === 'string' ? stmt : stmt.sql)
const statementOf = (stmt: InStatement | string, args?: InArgs): InStatement => (typeof stmt === 'string' ? { sql: stmt, args: args ?? [] } : stmt)

/** Opens a write transaction for Payload (./payloadWrites): after the gate, on the kept connection. */
export type OpenTransaction = (mode: TransactionMode) => Promise<Transaction>

export class QueuedClient implements Client {
  /** The connection's set-up, awaited by every call: a client is made synchronously, in the adapter's `init`. */
  private readonly ready: Promise<void>

  constructor(
    private readonly inner: Client,
    private readonly openTransaction: OpenTransaction,
  ) {
    this.ready = this.setUp()
    // Its failure is answered to each call that awaits it; none may be made (a start that ends first).
    this.ready.catch(() => undefined)
  }

  private async setUp(): Promise<void> {
    await this.inner.execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    const mode = await this.inner.execute('PRAGMA journal_mode')
    if (mode.rows[0]?.journal_mode !== 'wal') await this.inner.execute('PRAGMA journal_mode = WAL')
    for (const pragma of SERVING_WAL_PRAGMAS) await this.inner.execute(pragma)
  }

  get closed(): boolean {
    return this.inner.closed
  }

  get protocol(): string {
    return this.inner.protocol
  }

  async execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    await this.ready
    const statement = statementOf(stmt, args)
    if (!WRITE_STATEMENT.test(sqlOf(statement))) return inSlices(() => this.inner.execute(statement))
    return this.inOwnTransaction((tx) => tx.execute(statement))
  }

  async batch(stmts: InStatement[], mode?: TransactionMode): Promise<ResultSet[]> {
    await this.ready
    if (!stmts.some((s) => WRITE_STATEMENT.test(sqlOf(s)))) return inSlices(() => this.inner.batch(stmts, mode))
    return this.inOwnTransaction((tx) => tx.batch(stmts))
  }

  async migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    await this.ready
    return this.inner.migrate(stmts)
  }

  async transaction(mode: TransactionMode = 'write'): Promise<Transaction> {
    await this.ready
    return this.openTransaction(mode)
  }

  async executeMultiple(sql: string): Promise<void> {
    await this.ready
    return this.inner.executeMultiple(sql)
  }

  sync(): Promise<Replicated> {
    return this.inner.sync()
  }

  close(): void {
    this.inner.close()
  }

  /**
   * A write made outside a transaction, as one: committed (and answered once durable, as every
   * write) when `run` resolves, rolled back when it throws. The kept connection reads the schema
   * after its BEGIN (./payloadWrites), so a schema another connection changed is seen.
   */
  private async inOwnTransaction<T>(run: (tx: Transaction) => Promise<T>): Promise<T> {
    const tx = await this.openTransaction('write')
    try {
      const result = await run(tx)
      await tx.commit()
      return result
    } catch (err) {
      await tx.rollback().catch(() => undefined)
      throw err
    }
  }
}

/**
 * A write transaction of Payload's on the kept connection: its statements run in the writes'
 * slices of the loop, and it lets the next writer in once it is committed, rolled back or closed.
 * Once ended, it never touches the kept connection again: @libsql/client tells whether a
 * transaction is open from the connection alone, so a late rollback (drizzle rolls back when a
 * commit rejects, which a failed log sync does after the gate let the next writer in) or a stray
 * statement would act on the next writer's transaction.
 */
export class QueuedTransaction implements Transaction {
  private ended = false

  constructor(
    private readonly inner: Transaction,
    private readonly release: ReleaseWriteGate,
    private readonly mode: TransactionMode,
    /** Commits whose durability failed after COMMIT, for their Payload session to rethrow (./payloadWrites). */
    private readonly commitFailures: WeakMap<Transaction, unknown>,
  ) {}

  get closed(): boolean {
    return this.ended || this.inner.closed
  }

  execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    this.open()
    const statement = statementOf(stmt, args)
    return inSlices(() => this.inner.execute(statement), 'write')
  }

  batch(stmts: InStatement[]): Promise<ResultSet[]> {
    this.open()
    return inSlices(() => this.inner.batch(stmts), 'write')
  }

  executeMultiple(sql: string): Promise<void> {
    this.open()
    return inSlices(() => this.inner.executeMultiple(sql), 'write')
  }

  async commit(): Promise<void> {
    this.open()
    try {
      await inSlices(() => this.inner.commit(), 'write')
    } catch (err) {
      // A failed COMMIT leaves the transaction open: roll it back before letting others in.
      if (!this.inner.closed) await this.inner.rollback().catch(() => undefined)
      this.end()
      throw err
    }
    this.ended = true
    try {
      // Only a commit's caller waits for the log's sync (./writeGate); a read-only transaction wrote nothing.
      await this.release(this.mode !== 'read')
    } catch (err) {
      this.commitFailures.set(this, err)
      throw err
    }
  }

  async rollback(): Promise<void> {
    if (this.ended) return
    try {
      await this.inner.rollback()
    } finally {
      this.end()
    }
  }

  close(): void {
    if (this.ended) return
    try {
      this.inner.close()
    } finally {
      this.end()
    }
  }

  private open(): void {
    if (this.ended) throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED')
  }

  /** A rollback or close wrote nothing: the next writer goes in without waiting for a sync. */
  private end(): void {
    this.ended = true
    void this.release(false)
  }
}
