/**
 * The write-ahead log folded back into the database file off the serving thread.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT of whichever connection takes the log
 * past 1,000 pages: it copies those pages into the file and syncs it, synchronously, on the
 * caller's thread (libsql's calls are synchronous): tens of milliseconds in one write of every few
 * hundred, and every request of the process waited behind it (issue 37; docs/benchmarks.md, *Measurements behind the code*).
 *
 * So every connection this process writes with turns it off (SERVING_WAL_PRAGMAS), and after each
 * write of this process (its write gate lets go) a log longer than CHECKPOINT_BYTES is folded by
 * a worker thread on a connection of its own. PASSIVE: it waits for no reader or writer and none
 * waits for it. Once the whole log is in the file, the next writer starts the log again from its
 * beginning and cuts the file back to CHECKPOINT_BYTES (journal_size_limit), so the log's file
 * stays about as long as SQLite's own trigger would keep it, and its length is the signal.
 */
import { statSync } from 'node:fs'
import type { Worker } from 'node:worker_threads'

import { logger } from '../../../platform/logging'
import { CHECKPOINT_BYTES } from '../connection'
import { checkpointWorker, type CheckpointResult } from './checkpointWorker'
import { libsqlWorker } from './libsqlWorker'

type Folder = { worker: Worker; running: boolean; exited: Promise<void> }

/** After a worker failed, the wait before another is started (a failure is logged, not repeated per write). */
const RETRY_MS = 10_000

/** One file's background checkpoints: one worker, one checkpoint at a time. */
export class Checkpoints {
  private current: Folder | undefined
  private failedAt = -Infinity
  /**
   * Set by stop(): no worker is started after it. One started by a write after shutdown's stop
   * was still folding when the process exited; a worker terminated inside a libsql call aborts the
   * whole process (neon 1.0.0's napi status assertion, `PendingException`).
   */
  private closed = false
  /** Checkpoints the worker has run to the end (tests: the fold was the worker's). */
  folds = 0

  /** `stopped`: writes are stopped (./writeGate): a log whose sync failed may hold pages the disk never got, and nothing folds it into the file. */
  constructor(
    readonly file: string,
    private readonly stopped: () => boolean,
  ) {}

  /** After a write: a log past CHECKPOINT_BYTES is folded in the background. */
  whenLong(): void {
    if (this.closed || this.current?.running || this.stopped()) return
    const size = statSync(`${this.file}-wal`, { throwIfNoEntry: false })?.size ?? 0
    if (size <= CHECKPOINT_BYTES || performance.now() - this.failedAt < RETRY_MS) return
    this.current ??= this.start()
    this.current.running = true
    this.current.worker.postMessage('checkpoint')
  }

  /** Lets a running checkpoint finish, then closes the worker's connection (shutdown, before the last fold). */
  async stop(): Promise<void> {
    this.closed = true
    const stopping = this.current
    this.current = undefined
    if (!stopping) return
    // Held by its exit from here: a script awaiting this with nothing else pending must not end first.
    stopping.worker.ref()
    stopping.worker.postMessage('stop')
    await stopping.exited
  }

  private start(): Folder {
    const worker = libsqlWorker(checkpointWorker, { file: this.file })
    const checkpointer: Folder = { worker, running: false, exited: new Promise((resolve) => worker.once('exit', () => resolve())) }
    worker.on('message', (result: CheckpointResult) => {
      checkpointer.running = false
      if (!result.error) this.folds += 1
      if (result.error) logger().warn({ err: result.error }, 'db.wal_checkpoint_failed')
    })
    worker.on('error', (err) => {
      logger().error({ err }, 'db.wal_checkpointer_failed')
      this.failedAt = performance.now()
      if (this.current === checkpointer) this.current = undefined
    })
    // It never keeps a process alive (stop() ends it in an orderly way): let go after the listeners,
    // since adding a 'message' listener holds a worker again.
    worker.unref()
    return checkpointer
  }
}
