/**
 * One SQLite writer at a time per file in this process, waited for asynchronously. SQLite has one write
 * lock per file; a connection waits for it by sleeping inside the native call (busy_timeout),
 * which blocks the event loop. If the loop is blocked while another write transaction of the
 * same process is open (a Payload save awaiting its hooks), that transaction can never finish:
 * a stall until busy_timeout, then SQLITE_BUSY. So every write of this process to the file (Payload's
 * transactions, ./payloadWrites, and the service's own, ../engine) first takes its gate: they
 * queue here, on promises. Another process's lock is then waited for on a timer (../writeLock:
 * BEGIN IMMEDIATE tried again, the loop serving meanwhile), not in the native busy wait, which
 * is left to the adapter's rare writes outside a transaction.
 *
 * A write transaction never waits for another write of its own process while it holds the gate
 * (raw writes do not run inside Payload's hooks): a wait longer than GATE_TIMEOUT_MS is a bug,
 * reported as an error instead of a hang.
 */
import { ApiError } from '../../../platform/errors'
import { logger } from '../../../platform/logging'

export const GATE_TIMEOUT_MS = 30_000

/**
 * A durability that could not run (./walSync could not open the log: the process is out of file
 * descriptors). Nothing was lost: the log's pages are still waiting in the OS and the next sync
 * that runs writes them. That write's caller is told; later writes go on.
 */
export class DurabilityUnchecked extends Error {
  constructor(cause: unknown) {
    super('The log could not be opened to sync it.', { cause })
    this.name = 'DurabilityUnchecked'
  }
}

export class WriteGateTimeout extends Error {
  constructor() {
    super(`Waited more than ${GATE_TIMEOUT_MS / 1000} s for this process's SQLite write gate.`)
    this.name = 'WriteGateTimeout'
  }
}

/**
 * Lets the next writer in (idempotent). After a commit it resolves once what was committed is
 * durable; `committed = false` (a rollback, a failed write) syncs nothing and resolves at once.
 */
export type ReleaseWriteGate = (committed?: boolean) => Promise<void>

/** The answer to a write that committed but is not known to be on disk: read it back, never blindly retry. */
const unconfirmed = (why: string, retryAfter: string) =>
  new ApiError(503, 'service.unavailable', `The write was made but could not be confirmed on disk (${why}); read it back before trying again.`, { committed: true }, {
    'Retry-After': retryAfter,
  })

const STOPPED_WHY = 'the database could not sync its log; writes are stopped until the service restarts'

const writesStoppedError = () =>
  new ApiError(503, 'service.unavailable', 'Writes are stopped: the database could not sync its log to disk. The service needs a restart.', undefined, {
    'Retry-After': '30',
  })

export class WriteGate {
  /** The last writer's turn: the next one waits for it. */
  private tail: Promise<void> = Promise.resolve()
  private readonly releaseListeners = new Set<() => void>()
  private stoppedBy: ApiError | undefined

  /**
   * `durable`: how a committed write is made durable before its caller hears of it (the log's
   * sync, ./walSync, run off this thread), awaited by `run` and a Payload transaction's commit
   * after the gate is let go, so the next writer does not wait for this one's sync.
   */
  constructor(private durable: (() => Promise<void>) | undefined) {}

  /** Another durability; writes stopped by a failed sync go on again (what a restart does: tests). */
  setDurability(sync: (() => Promise<void>) | undefined): void {
    this.durable = sync
    this.stoppedBy = undefined
  }

  /**
   * Set once a committed write could not be made durable (the log's sync failed: EIO, ENOSPC). After
   * a failed fsync Linux may have dropped the pages it could not write and a later fsync succeeds
   * without them, so no later write can be promised durable either: writes stop until a restart
   * (SQLite reads the log back from what is on disk), reads go on, and liveness fails (../operations).
   * This is the answer to a write refused before it began.
   */
  get stopped(): ApiError | undefined {
    return this.stoppedBy
  }

  /** Called after every write lets the gate go (committed or not): the change feed reads the counters then. */
  onReleased(listener: () => void): () => void {
    this.releaseListeners.add(listener)
    return () => this.releaseListeners.delete(listener)
  }

  /** Waits for the gate; the returned release lets the next writer in. */
  async acquire(): Promise<ReleaseWriteGate> {
    let release!: () => void
    const mine = new Promise<void>((resolve) => (release = resolve))
    const before = this.tail
    this.tail = before.then(() => mine)
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        before,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new WriteGateTimeout()), GATE_TIMEOUT_MS)
          timer.unref()
        }),
      ])
    } catch (err) {
      // Give the turn up at once, so the writers behind are not blocked by this one.
      release()
      throw err
    } finally {
      clearTimeout(timer)
    }
    // Writes stopped (before or while this writer waited its turn): refused before it begins.
    if (this.stoppedBy) {
      release()
      throw this.stoppedBy
    }
    let released = false
    return (committed = true) => {
      if (released) return Promise.resolve()
      released = true
      release()
      for (const listener of this.releaseListeners) {
        // A listener's failure is its own (a fold that cannot start): the write committed all the same.
        try {
          listener()
        } catch (err) {
          logger().error({ err }, 'db.write_gate.listener_failed')
        }
      }
      return committed ? this.madeDurable() : Promise.resolve()
    }
  }

  /**
   * Runs `write` (usually synchronous SQL on the service's connection) holding the gate, answered
   * once durable; with `answerAtCommit`, once committed: its log's sync runs behind it (a failed
   * one still stops writes), for a write no caller is told was saved (./sqliteWrites `counted`).
   */
  async run<T>(write: () => T | Promise<T>, { answerAtCommit = false }: { answerAtCommit?: boolean } = {}): Promise<T> {
    const release = await this.acquire()
    let result: T
    try {
      result = await write()
    } catch (err) {
      void release(false)
      throw err
    }
    const durable = release()
    if (answerAtCommit) durable.catch(() => undefined)
    else await durable
    return result
  }

  private stop(cause: unknown): void {
    if (this.stoppedBy) return
    logger().error({ err: cause }, 'db.log_sync_failed')
    this.stoppedBy = writesStoppedError()
  }

  /** What a committed write's caller hears when its durability failed (or a sync before it did). */
  private durabilityFailed(err: unknown): ApiError {
    if (err instanceof DurabilityUnchecked && !this.stoppedBy) {
      logger().warn({ err: err.cause }, 'db.log_sync_unchecked')
      return unconfirmed('the server is short of file descriptors', '5')
    }
    this.stop(err)
    return unconfirmed(STOPPED_WHY, '30')
  }

  /** Resolves once the write just committed is durable; rejects with its caller's answer otherwise. */
  private async madeDurable(): Promise<void> {
    if (!this.durable) return
    try {
      await this.durable()
    } catch (err) {
      throw this.durabilityFailed(err)
    }
    // Stopped before or during this sync: a sync that succeeded after one that failed may have
    // synced a log with a hole before this write.
    if (this.stoppedBy) throw unconfirmed(STOPPED_WHY, '30')
  }
}
