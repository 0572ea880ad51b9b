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
 * - `transaction()` gives a write transaction begun on its first statement, after the write gate,
 *   on the write path's kept connection (./payloadWrites; QueuedTransaction below): @libsql/client
 *   0.14.0's own hands its connection to the transaction and opens a new one without busy_timeout,
 *   left to garbage collection.
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

/** A transaction for Payload (./payloadWrites), begun on its first statement: after the gate, on the kept connection. */
export type OpenTransaction = (mode: TransactionMode) => Transaction

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
    const tx = this.openTransaction('write')
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

/** A transaction begun on the kept connection: the client's own transaction on it, and the gate's release. */
export type BegunTransaction = { inner: Transaction; release: ReleaseWriteGate }

/**
 * A write transaction of Payload's on the kept connection: its statements run in the writes'
 * slices of the loop, and it lets the next writer in once it is committed, rolled back or closed.
 * It is begun (the write gate, then BEGIN IMMEDIATE) on its first statement, not when Payload
 * begins its operation: what an operation does before its first statement (access, hooks, an
 * upload's file read and measured) runs before the file's lock is taken, so no other writer waits
 * for it (docs/benchmarks.md, *Writes first in a turn*). Nothing of the transaction ran before its
 * first statement, so it reads and writes as one begun at the operation's start would.
 * Once ended, it never touches the kept connection again: @libsql/client tells whether a
 * transaction is open from the connection alone, so a late rollback (drizzle rolls back when a
 * commit rejects, which a failed log sync does after the gate let the next writer in) or a stray
 * statement would act on the next writer's transaction.
 */
export class QueuedTransaction implements Transaction {
  private ended = false
  /** Its begin, asked for by the first statement. */
  private begun: Promise<BegunTransaction> | undefined
  /** The begun transaction, once its begin has succeeded. */
  private opened: BegunTransaction | undefined

  constructor(
    private readonly begin: () => Promise<BegunTransaction>,
    private readonly mode: TransactionMode,
    /** Commits whose durability failed after COMMIT, for their Payload session to rethrow (./payloadWrites). */
    private readonly commitFailures: WeakMap<Transaction, unknown>,
  ) {}

  get closed(): boolean {
    return this.ended || (this.opened?.inner.closed ?? false)
  }

  async execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    const statement = statementOf(stmt, args)
    const { inner } = await this.started()
    return inSlices(() => inner.execute(statement), 'write')
  }

  async batch(stmts: InStatement[]): Promise<ResultSet[]> {
    const { inner } = await this.started()
    return inSlices(() => inner.batch(stmts), 'write')
  }

  async executeMultiple(sql: string): Promise<void> {
    const { inner } = await this.started()
    return inSlices(() => inner.executeMultiple(sql), 'write')
  }

  async commit(): Promise<void> {
    this.open()
    // No statement was asked for: nothing was begun, written or held.
    if (!this.begun) {
      this.ended = true
      return
    }
    // A begin that failed rejects here; nothing is held (the begin let the gate go).
    const { inner, release } = await this.begun
    try {
      await inSlices(() => inner.commit(), 'write')
    } catch (err) {
      // A failed COMMIT leaves the transaction open: roll it back before letting others in.
      if (!inner.closed) await inner.rollback().catch(() => undefined)
      this.ended = true
      void release(false)
      throw err
    }
    this.ended = true
    try {
      // Only a commit's caller waits for the log's sync (./writeGate); a read-only transaction wrote nothing.
      await release(this.mode !== 'read')
    } catch (err) {
      this.commitFailures.set(this, err)
      throw err
    }
  }

  /** Rolled back and let go; the next writer goes in without waiting for a sync (nothing was written). */
  async rollback(): Promise<void> {
    if (this.ended) return
    // Ended at once: a statement still waiting for the begin may not run in it.
    this.ended = true
    const opened = await this.settled()
    if (!opened) return
    try {
      await opened.inner.rollback()
    } finally {
      void opened.release(false)
    }
  }

  close(): void {
    if (this.ended) return
    this.ended = true
    const closeAndRelease = ({ inner, release }: BegunTransaction) => {
      try {
        inner.close()
      } finally {
        void release(false)
      }
    }
    if (this.opened) closeAndRelease(this.opened)
    // A begin still under way is closed and let go once it has begun.
    else void this.settled().then((late) => late && closeAndRelease(late))
  }

  private open(): void {
    if (this.ended) throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED')
  }

  /** The begun transaction, begun by the first statement to ask; still open when it comes back. */
  private async started(): Promise<BegunTransaction> {
    this.open()
    this.begun ??= this.begin().then((opened) => (this.opened = opened))
    const opened = await this.begun
    // Ended while it was begun (the operation rolled back): its statements may not run.
    this.open()
    return opened
  }

  /** The begun transaction once its begin has settled; undefined when none was asked for or it failed. */
  private settled(): Promise<BegunTransaction | undefined> {
    return this.begun ? this.begun.catch(() => undefined) : Promise.resolve(undefined)
  }
}
