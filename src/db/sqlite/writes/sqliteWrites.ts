/**
 * The SQLite write path to one file, one object: its gate (./writeGate), the log's sync before a
 * write is answered (./walSync), the log's checkpoints off the serving thread (./walCheckpoints),
 * and Payload's saves on the gate's one kept connection (./payloadWrites). Its state is its own
 * (Payload keeps an adapter's state on the adapter); nothing is wired when a module loads.
 */
import type { DatabaseAdapterObj } from 'payload'

import type { ApiError } from '../../../platform/errors'
import { PayloadWrites } from './payloadWrites'
import { Checkpoints } from './walCheckpoints'
import { LogSync } from './walSync'
import { WriteGate } from './writeGate'

/**
 * Where a Payload adapter instance the engine's adapter made (`payload.db`) keeps its write path: a
 * global symbol, so a second copy of this module finds what the first attached. A serving process
 * has two (the server's modules and Next's bundle of them) and one Payload instance, made by
 * whichever copy asked first (Payload keeps it on a global): both copies then queue at its one gate.
 */
const WRITES = Symbol.for('curation.sqliteWrites')
type Attached = { [WRITES]?: SqliteWrites }

export class SqliteWrites {
  readonly gate: WriteGate
  readonly log: LogSync
  readonly checkpoints: Checkpoints
  private readonly payload: PayloadWrites

  constructor(readonly file: string) {
    this.log = new LogSync(file)
    // A write's caller hears of it once the log is synced; after each write a long log is folded.
    this.gate = new WriteGate(() => this.log.sync())
    this.checkpoints = new Checkpoints(file, () => this.gate.stopped !== undefined)
    this.gate.onReleased(() => this.checkpoints.whenLong())
    this.payload = new PayloadWrites(file, this.gate)
  }

  /** Runs `write` (synchronous SQL on the service's connection, usually) as this file's writer, answered once durable. */
  under<T>(write: () => T | Promise<T>): Promise<T> {
    return this.gate.run(write)
  }

  /**
   * A counter's write (a rate-limit hit) as this file's writer, answered once committed: its log is
   * synced behind it, by its own sync or the next write's. No caller is told it was saved, so it
   * need not wait for the disk: a power cut can lose the last hits not yet synced (a process crash
   * loses nothing: the log is in the OS), which lowers a counter and refuses no one wrongly. A
   * submission or an approval counts a hit first, then saves: one sync fewer before its answer.
   */
  counted<T>(write: () => T | Promise<T>): Promise<T> {
    return this.gate.run(write, { answerAtCommit: true })
  }

  /** Why writes are refused (a failed log sync, until a restart), if they are. */
  get stopped(): ApiError | undefined {
    return this.gate.stopped
  }

  /**
   * Payload's adapter, its saves made on this write path (./payloadWrites); each instance it makes
   * (Payload's `payload.db`) leads back here (`SqliteWrites.of`).
   */
  payloadAdapter(adapter: DatabaseAdapterObj): DatabaseAdapterObj {
    return this.payload.adapter(adapter, (instance) => {
      ;(instance as Attached)[WRITES] = this
    })
  }

  /** The write path of a Payload adapter instance made by `payloadAdapter` (the engine's every operation starts here). */
  static of(db: object): SqliteWrites {
    const writes = (db as Attached)[WRITES]
    if (!writes) throw new Error('This Payload instance was not made with the SQLite engine\'s adapter (src/db/sqlite/operations.ts)')
    return writes
  }

  /** Shutdown: a running checkpoint finishes (the last fold needs the log to itself), then the kept connection closes. */
  async close(): Promise<void> {
    await this.checkpoints.stop()
    this.payload.close()
    await this.log.close()
  }
}
