/**
 * Payload's own saves on SQLite, made atomic and queued. `@payloadcms/db-sqlite` runs a save as
 * several statements (the row, then its relationship rows deleted and re-inserted) and wraps
 * them in a transaction only when given `transactionOptions`; @libsql/client then opens each
 * transaction (BEGIN IMMEDIATE) on a connection it hands away and replaces by a new one, which
 * has no busy_timeout (fails at once when another process writes) and stays open until garbage
 * collection. Here the adapter is given its client (./queuedClient), which opens every write
 * transaction instead:
 * - on its first statement, not when Payload begins the operation (./queuedClient's QueuedTransaction);
 * - after this process's write gate (./writeGate), so in-process writers queue on promises;
 * - on a connection of its own, kept for the next transaction with its prepared statements
 *   (never left to garbage collection); another process's lock is waited for on a timer;
 * - BEGIN IMMEDIATE: the write lock is taken up front, never upgraded half-way (which could
 *   fail with SQLITE_BUSY inside the transaction).
 * `PayloadWrites.adapter` gives the adapter that client and mends its commit and begin, the two
 * methods of Payload's adapter replaced (docs/architecture.md, "The SQLite write path's wrappers";
 * each pinned by test/db/sqliteWriteContract.test.ts).
 */
import { createClient, type Transaction, type TransactionMode } from '@libsql/client'
import { Sqlite3Transaction } from '@libsql/client/sqlite3'
import Database from 'libsql'
import type { DatabaseAdapterObj } from 'payload'

import { BUSY_TIMEOUT_MS, keptStatement, SERVING_WAL_PRAGMAS } from '../connection'
import { beginImmediate } from '../writeLock'
import { type BegunTransaction, QueuedClient, QueuedTransaction, SCHEMA_READ } from './queuedClient'
import type { WriteGate } from './writeGate'


type Db = InstanceType<typeof Database>

/** Statements kept per connection: Payload's saves repeat a few dozen shapes. */
const KEPT_STATEMENTS = 500

/**
 * The kept write connection: a libsql connection whose `prepare` keeps its statements (a
 * subclass, not a patched method). A connection per transaction read the whole schema again on
 * its first statement and prepared every statement afresh (trigger programs included) on every
 * save: most of an approval's SQLite work (docs/benchmarks.md, *Measurements behind the code*).
 */
class KeptConnection extends (Database as unknown as new (file: string) => { prepare(sql: string): unknown }) {
  private readonly kept = new Map<string, unknown>()

  override prepare(sql: string): unknown {
    return keptStatement(this.kept, sql, (text) => super.prepare(text), KEPT_STATEMENTS)
  }
}

/**
 * The client's transaction under a Payload session (`sessions[id].db.session.tx`: drizzle's
 * transaction, its session, the client's transaction), or undefined if drizzle changed shape.
 */
export function clientTransactionOf(session: unknown): Transaction | undefined {
  const tx = (session as { db?: { session?: { tx?: unknown } } } | undefined)?.db?.session?.tx
  return tx && typeof tx === 'object' ? (tx as Transaction) : undefined
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
  adapter(adapter: DatabaseAdapterObj, made: (instance: object) => void): DatabaseAdapterObj {
    // The wrappers below are the adapter's methods: their own `this` is Payload's adapter.
    const { gate, commitFailures } = this
    const client = () => new QueuedClient(createClient({ url: `file:${this.file}` }), (mode) => this.transaction(mode))
    return {
      ...adapter,
      init: (args) => {
        const instance = adapter.init(args) as ReturnType<typeof adapter.init> & { client?: QueuedClient }
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
        // Its `connect` keeps a client already set (dist/connect.js: `if (!this.client)`).
        instance.client = client()
        made(instance)
        return instance
      },
    }
  }

  /** Closes the kept write connection (shutdown); the next transaction opens it again. */
  close(): void {
    this.kept?.close()
    this.kept = undefined
  }

  /**
   * A write transaction for the adapter's client, begun on its first statement (./queuedClient):
   * after the gate, on the kept connection (see above). While writes are stopped it is refused at
   * once, when Payload begins its operation (the begin's mend above answers it).
   */
  private transaction(mode: TransactionMode): Transaction {
    if (this.gate.stopped) throw this.gate.stopped
    return new QueuedTransaction(() => this.begun(mode), mode, this.commitFailures)
  }

  private async begun(mode: TransactionMode): Promise<BegunTransaction> {
    const release = await this.gate.acquire()
    try {
      return { inner: new Sqlite3Transaction(await this.begin(mode), 'number') as unknown as Transaction, release }
    } catch (err) {
      // BEGIN failed (another process held the lock past its patience): nothing is open.
      void release(false)
      throw err
    }
  }

  /** This process's connection for Payload's transactions, kept across them (one transaction at a time: the write gate). */
  private connection(): Db {
    if (this.kept?.open) return this.kept
    const db = new KeptConnection(this.file) as unknown as Db
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    for (const pragma of SERVING_WAL_PRAGMAS) db.exec(pragma)
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
