/**
 * Payload's own saves on SQLite, made atomic and queued. `@payloadcms/db-sqlite` runs a save as
 * several statements (the row, then its relationship rows deleted and re-inserted) and wraps
 * them in a transaction only when given `transactionOptions`; @libsql/client then opens each
 * transaction (BEGIN IMMEDIATE) on a connection it hands away and replaces by a new one, which
 * has no busy_timeout (fails at once when another process writes) and stays open until garbage
 * collection. Here the adapter's client opens every write transaction instead:
 * - after this process's write gate (./writeGate), so in-process writers queue on promises;
 * - on a connection of its own with busy_timeout, so other processes' writers are waited for,
 *   kept for the next transaction with its prepared statements (never left to garbage collection);
 * - BEGIN IMMEDIATE: the write lock is taken up front, never upgraded half-way (which could
 *   fail with SQLITE_BUSY inside the transaction).
 * The adapter's writes outside a transaction take the same gate (gateAutocommitWrites).
 * `PayloadWrites.adapter` installs these on the adapter Payload is given, with the two mends of
 * its commit and begin: every wrapper of Payload's adapter and of @libsql/client's objects is in
 * this file (docs/architecture.md, "The SQLite write path's wrappers"; each pinned by
 * test/db/sqliteWriteContract.test.ts).
 */
import { type Client, type InStatement, LibsqlError, type ResultSet, type Transaction, type TransactionMode } from '@libsql/client'
import { Sqlite3Transaction } from '@libsql/client/sqlite3'
import Database from 'libsql'
import type { DatabaseAdapterObj } from 'payload'

import { BUSY_TIMEOUT_MS, keptStatement, PAYLOAD_CLIENT_WAL_PRAGMAS, SERVING_WAL_PRAGMAS } from '../connection'
import { beginImmediate } from '../writeLock'
import { inSlices } from '../../../platform/loopSlices'
import type { ReleaseWriteGate, WriteGate } from './writeGate'


type Db = InstanceType<typeof Database>

/** Statements kept per connection: Payload's saves repeat a few dozen shapes. */
const KEPT_STATEMENTS = 500

const SCHEMA_READ = 'SELECT 1 FROM sqlite_master LIMIT 1'

/**
 * The client's transaction under a Payload session (`sessions[id].db.session.tx`: drizzle's
 * transaction, its session, the client's transaction), or undefined if drizzle changed shape.
 */
export function clientTransactionOf(session: unknown): Transaction | undefined {
  const tx = (session as { db?: { session?: { tx?: unknown } } } | undefined)?.db?.session?.tx
  return tx && typeof tx === 'object' ? (tx as Transaction) : undefined
}

/**
 * A transaction that lets the next writer in once it is committed, rolled back or closed. Once
 * ended, it never touches the kept connection again: @libsql/client tells whether a transaction is
 * open from the connection alone, so a late rollback (drizzle rolls back when a commit rejects,
 * which a failed log sync does after the gate let the next writer in) or a stray statement would
 * act on the next writer's transaction.
 */
function releasing(tx: Transaction, release: ReleaseWriteGate, mode: TransactionMode, commitFailures: WeakMap<Transaction, unknown>): Transaction {
  const { commit, rollback, close, execute, batch } = bound(tx)
  let ended = false
  const open = () => {
    if (ended) throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED')
  }
  // Only a commit's caller waits for the log's sync (./writeGate); a rollback wrote nothing.
  const end = () => {
    ended = true
    void release(false)
  }
  tx.execute = ((...a: Parameters<Transaction['execute']>) => (open(), execute(...a))) as Transaction['execute']
  tx.batch = ((...a: Parameters<Transaction['batch']>) => (open(), batch(...a))) as Transaction['batch']
  tx.commit = async () => {
    open()
    try {
      await commit()
    } catch (err) {
      // A failed COMMIT leaves the transaction open: roll it back before letting others in.
      if (!tx.closed) await rollback().catch(() => undefined)
      end()
      throw err
    }
    ended = true
    try {
      // A read-only transaction wrote nothing to sync.
      await release(mode !== 'read')
    } catch (err) {
      commitFailures.set(tx, err)
      throw err
    }
  }
  tx.rollback = async () => {
    if (ended) return
    try {
      await rollback()
    } finally {
      end()
    }
  }
  tx.close = () => {
    if (ended) return
    try {
      close()
    } finally {
      end()
    }
  }
  return tx
}

const bound = (tx: Transaction) => ({
  commit: tx.commit.bind(tx),
  rollback: tx.rollback.bind(tx),
  close: tx.close.bind(tx),
  execute: tx.execute.bind(tx),
  batch: tx.batch.bind(tx),
})

const WRITE_STATEMENT = /^\s*(insert|update|delete|replace)\b/i

const sqlOf = (stmt: InStatement): string => (typeof stmt === 'string' ? stmt : stmt.sql)

/**
 * Writes Payload's adapter makes outside a transaction (`payload.db.updateOne` without a
 * request, Payload's lock bookkeeping) take the same gate: a native busy wait on the client's
 * connection would otherwise block the loop that an open transaction of this process needs.
 * Reads pass straight through.
 */
function gateAutocommitWrites(client: Client, gate: WriteGate): void {
  const execute = client.execute.bind(client) as (stmt: InStatement, args?: unknown) => Promise<ResultSet>
  const batch = client.batch.bind(client)
  // A read first: the long-lived connection reloads a schema another connection changed (a bulk
  // load drops and re-creates triggers and indexes). Left to the write itself, that reload failed
  // the first write through the text index's triggers with "no such table: content".
  const fresh = () => execute(SCHEMA_READ)
  client.execute = ((stmt: InStatement, args?: unknown) =>
    WRITE_STATEMENT.test(sqlOf(stmt))
      ? inSlices(() => gate.run(async () => (await fresh(), execute(stmt, args))), 'write')
      : inSlices(() => execute(stmt, args))) as Client['execute']
  client.batch = ((stmts: InStatement[], mode?: TransactionMode) =>
    stmts.some((s) => WRITE_STATEMENT.test(sqlOf(s)))
      ? inSlices(() => gate.run(async () => (await fresh(), batch(stmts, mode))), 'write')
      : inSlices(() => batch(stmts, mode))) as Client['batch']
}

/** A transaction whose statements run in the writes' slices of the event loop (./loopSlices). */
function sliced(tx: Transaction): Transaction {
  const execute = tx.execute.bind(tx) as (...a: unknown[]) => Promise<ResultSet>
  const batch = tx.batch.bind(tx)
  const commit = tx.commit.bind(tx)
  tx.execute = ((...a: unknown[]) => inSlices(() => execute(...a), 'write')) as Transaction['execute']
  tx.batch = ((stmts: InStatement[]) => inSlices(() => batch(stmts), 'write')) as Transaction['batch']
  tx.commit = () => inSlices(commit, 'write')
  return tx
}

/** Payload's saves to one file: its kept write connection, the adapter's wrappers, the failed commits its sessions rethrow. */
export class PayloadWrites {
  private kept: Db | undefined
  /** Commits whose durability failed after COMMIT (./writeGate's answer), for their Payload session to rethrow. */
  private readonly commitFailures = new WeakMap<Transaction, unknown>()

  constructor(
    readonly file: string,
    private readonly gate: WriteGate,
  ) {}

  /**
   * Payload's adapter (`sqliteAdapter(...)`, transactions on) whose instance saves as described
   * above, with the two mends no option covers:
   * - `commitTransaction`: Payload's drizzle adapter swallows a failed commit (its session's promise
   *   never rejects), so a save whose log could not be synced would be answered as saved;
   * - `beginTransaction`: while writes are stopped, a save is refused with that answer (Payload would
   *   replace it with a plain "cannot begin transaction" error, a 500).
   */
  adapter(adapter: DatabaseAdapterObj): DatabaseAdapterObj {
    // The wrappers below are the adapter's methods: their own `this` is Payload's adapter.
    const { gate, commitFailures } = this
    const queue = (client: Client) => this.queueTransactions(client)
    return {
      ...adapter,
      init: (args) => {
        const instance = adapter.init(args) as ReturnType<typeof adapter.init> & { client?: Client }
        const commitTransaction = instance.commitTransaction
        instance.commitTransaction = async function (this: typeof instance, incoming) {
          const id = incoming instanceof Promise ? await incoming : incoming
          const sessions = (this as unknown as { sessions?: Record<string, unknown> }).sessions
          const tx = clientTransactionOf(id == null ? undefined : sessions?.[String(id)])
          await commitTransaction.call(this, id)
          const failure = tx ? commitFailures.get(tx) : gate.stopped
          if (failure) throw failure
        }
        const beginTransaction = instance.beginTransaction
        instance.beginTransaction = async function (this: typeof instance, options) {
          try {
            return await beginTransaction.call(this, options)
          } catch (err) {
            throw gate.stopped ?? err
          }
        }
        const connect = instance.connect
        if (connect) {
          instance.connect = async function (this: typeof instance, options) {
            await connect.call(this, options)
            if (instance.client) {
              for (const pragma of PAYLOAD_CLIENT_WAL_PRAGMAS) await instance.client.execute(pragma)
              queue(instance.client)
            }
          }
        }
        return instance
      },
    }
  }

  /** Closes the kept write connection (shutdown); the next transaction opens it again. */
  close(): void {
    this.kept?.close()
    this.kept = undefined
  }

  /** Makes the adapter's client open its write transactions as described above. */
  private queueTransactions(client: Client): void {
    gateAutocommitWrites(client, this.gate)
    client.transaction = async (mode: TransactionMode = 'write'): Promise<Transaction> => {
      const release = await this.gate.acquire()
      try {
        return releasing(sliced(new Sqlite3Transaction(await this.begin(mode), 'number') as unknown as Transaction), release, mode, this.commitFailures)
      } catch (err) {
        // BEGIN failed (another process held the lock past busy_timeout): nothing is open.
        void release(false)
        throw err
      }
    }
  }

  /**
   * This process's connection for Payload's transactions, kept across them (one transaction at a
   * time: the write gate) with its prepared statements. A connection per transaction read the
   * whole schema again on its first statement and prepared every statement afresh (trigger
   * programs included) on every save: most of an approval's SQLite work (docs/benchmarks.md, *Measurements behind the code*).
   */
  private connection(): Db {
    if (this.kept?.open) return this.kept
    const db = new Database(this.file)
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    for (const pragma of SERVING_WAL_PRAGMAS) db.exec(pragma)
    const prepare = db.prepare.bind(db)
    const statements = new Map<string, ReturnType<Db['prepare']>>()
    db.prepare = ((sql: string) => keptStatement(statements, sql, prepare, KEPT_STATEMENTS)) as Db['prepare']
    this.kept = db
    return db
  }

  /**
   * Begins a transaction on the kept connection. A read of the schema table follows the BEGIN: a
   * connection prepares against the schema it last read, and another connection may have changed
   * it since (a bulk load drops and re-creates the text index's triggers); under the write lock the
   * schema read now holds for the whole transaction. Kept statements are prepared again by SQLite
   * itself when the schema moved.
   */
  private async begin(mode: TransactionMode): Promise<Db> {
    const db = this.connection()
    // A transaction left open (its owner let go without ending it) must not swallow the next one.
    if (db.inTransaction) db.exec('ROLLBACK')
    // A write's lock, held by another process, is waited for on a timer (../writeLock).
    if (mode === 'write') await beginImmediate(db)
    else db.exec(mode === 'read' ? 'BEGIN TRANSACTION READONLY' : 'BEGIN DEFERRED')
    db.prepare(SCHEMA_READ).all()
    return db
  }
}
