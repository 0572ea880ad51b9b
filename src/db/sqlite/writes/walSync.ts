/**
 * A write's durability, off the serving thread. SQLite's default (synchronous = FULL) syncs the
 * write-ahead log inside every COMMIT: an fsync on the event loop, which waits for the disk and
 * for whatever else the file system must write first (a fold's pages, the request log's appends).
 * At a million items one such COMMIT held most of a loop delay, the thread asleep in the kernel
 * (docs/benchmarks.md, *Measurements behind the code*). So the connections that write commit with synchronous = NORMAL (the log is written,
 * not synced; SQLite stays consistent across a power loss, ./walCheckpoints' SERVING_WAL_PRAGMAS),
 * and a write's caller hears of it only after the log file is synced here, on a thread of the
 * file's own (./syncWorker; ./writeGate). A process crash loses nothing (the log is in the OS); an
 * answered write survives a power loss, as with FULL.
 *
 * Group commit: writes committed while a sync runs share the next one (begun after their
 * commits, so it covers them); one sync at a time per file. The log stays open between syncs: an
 * open and a close around each sync were two more turns of the thread pool that every write's
 * answer waited for, each a whole turn of the loop behind the reads under load
 * (docs/benchmarks.md, *The mixed row in every shape*). And the sync's end is heard between two
 * statements of the turn it came in, not in the loop's next poll phase (`onThread`).
 */
import { fstatSync } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Worker } from 'node:worker_threads'

import { logger } from '../../../platform/logging'
import { beforeEachStatement } from '../../../platform/loopSlices'
import { type LibsqlWorkerBody, libsqlWorker } from './libsqlWorker'
import { type SyncAnswer, type SyncRequest, syncWorker } from './syncWorker'
import { DurabilityUnchecked } from './writeGate'

/** How long a sync waits for a file descriptor to come free (sockets close all the time) before giving up. */
export const OPEN_PATIENCE_MS = 1000
const OPEN_RETRY_MS = 10

/**
 * Opens `name`, waiting out a shortage of descriptors (EMFILE, ENFILE) for up to OPEN_PATIENCE_MS:
 * it is a moment's, not a lost write (./writeGate's DurabilityUnchecked after that).
 */
async function openPatiently(name: string) {
  const deadline = Date.now() + OPEN_PATIENCE_MS
  for (;;) {
    try {
      return await open(name, 'r')
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'EMFILE' && code !== 'ENFILE') throw err
      if (Date.now() >= deadline) throw new DurabilityUnchecked(err)
      await sleep(OPEN_RETRY_MS)
    }
  }
}

async function syncFile(name: string): Promise<void> {
  const handle = await openPatiently(name)
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Whether a kept handle's file is gone from its directory. SQLite deletes the log when the last
 * connection to the database closes, and the next one makes a new file under the same name:
 * syncing the old one would promise nothing. An fstat of an open descriptor reads the inode in
 * memory (no disk, microseconds): checked before each sync, on this thread.
 */
const removed = (handle: FileHandle): boolean => {
  try {
    return fstatSync(handle.fd).nlink === 0
  } catch {
    return true
  }
}

/** The thread that runs a file's syncs, and the number of the last one it ended (./syncWorker). */
type SyncThread = { worker: Worker; ended: Int32Array }

/** A sync asked of the thread and not yet heard of. */
type Asked = {
  seq: number
  log: FileHandle
  worker: Worker
  resolve: () => void
  reject: (err: Error) => void
  stopHearing: () => void
  patience: NodeJS.Timeout
}

/** After a sync thread could not start, died or did not answer, the wait before another is started (its syncs run on libuv's pool meanwhile). */
const THREAD_RETRY_MS = 10_000
/**
 * How long a sync asked of the thread may go unanswered before it is run on libuv's pool instead
 * (the thread let go): a thread that never answered would hold its write's caller, and every
 * write after it, for ever. The disk's own syncs take well under a second (docs/benchmarks.md).
 */
export const THREAD_PATIENCE_MS = 2000

/** One file's log syncs: one at a time, writes committed while one runs sharing the next. */
export class LogSync {
  private running: Promise<void> | undefined
  private next: Promise<void> | undefined
  private entrySynced = false
  /** The log, open since the first sync (while its file is the log's). */
  private log: FileHandle | undefined
  private thread: SyncThread | undefined
  private threadFailedAt = -Infinity
  private asked: Asked | undefined
  private seq = 0
  /** Syncs completed so far (tests read it: a write waited for one). */
  done = 0
  /** Times the log was opened (once, and again after SQLite made a new one). */
  opened = 0

  /** `body`: what the sync's thread runs (./syncWorker; a test's thread that never answers). */
  constructor(
    readonly file: string,
    private readonly body: LibsqlWorkerBody<{ ended: SharedArrayBuffer }> = syncWorker,
  ) {}

  /** The number of syncs the thread has ended, read where it wrote it (tests: ended, not yet heard). */
  get ended(): number {
    return this.thread ? Atomics.load(this.thread.ended, 0) : 0
  }

  /** Resolves once everything committed to the log before this call is on disk. */
  sync(): Promise<void> {
    // One queued behind the one that just ended, not begun yet: it begins after this write's
    // commit, so it covers it. (Begun beside it, two syncs ran at once, and the thread has one
    // slot for a sync asked: the first's write was never answered.)
    if (this.next && !this.running) return this.next
    if (!this.running) return this.start()
    // One is running, perhaps begun before this write's commit: wait for the one after it.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined
        return this.start()
      })
    return this.next
  }

  private start(): Promise<void> {
    const run = this.once().finally(() => {
      if (this.running === run) this.running = undefined
    })
    this.running = run
    return run
  }

  /** Lets the log and the thread go (shutdown), once a running sync has ended: the thread may be using the log's descriptor. */
  async close(): Promise<void> {
    await Promise.all([this.running, this.next].map((sync) => sync?.catch(() => undefined)))
    this.dropLog()
    const thread = this.thread
    this.thread = undefined
    await thread?.worker.terminate()
  }

  /** Closes the kept log (no sync is running: they run one at a time, and this is called before one or at close). */
  private dropLog(): void {
    const log = this.log
    this.log = undefined
    void log?.close().catch(() => undefined)
  }

  private async syncLog(): Promise<void> {
    if (this.log && removed(this.log)) this.dropLog()
    if (!this.log) {
      this.log = await openPatiently(`${this.file}-wal`)
      this.opened += 1
    }
    const thread = this.syncThread()
    // No thread (one could not start: out of descriptors): libuv's pool, heard in the next poll phase.
    if (thread) await this.onThread(thread, this.log, this.log.fd)
    else await this.log.sync()
  }

  /** The file's sync thread, started at its first sync; none for a while after one could not start. */
  private syncThread(): SyncThread | undefined {
    if (this.thread || performance.now() - this.threadFailedAt < THREAD_RETRY_MS) return this.thread
    try {
      this.thread = this.startThread()
    } catch (err) {
      this.threadFailedAt = performance.now()
      logger().warn({ err }, 'db.log_sync_thread_failed')
    }
    return this.thread
  }

  /**
   * The fsync, on the file's own thread. It is heard of by whichever comes first: the check before
   * each statement (the number the thread wrote, read between two statements of this turn) or the
   * thread's message (in the loop's next poll phase, when no statement runs).
   */
  private onThread(thread: SyncThread, log: FileHandle, fd: number): Promise<void> {
    const seq = ++this.seq
    // Held by its answer: a script awaiting a write with nothing else pending must not end first.
    thread.worker.ref()
    return new Promise<void>((resolve, reject) => {
      const patience = setTimeout(() => this.unanswered(seq), THREAD_PATIENCE_MS).unref()
      this.asked = { seq, log, worker: thread.worker, resolve, reject, stopHearing: beforeEachStatement(() => this.hear()), patience }
      thread.worker.postMessage({ seq, fd } satisfies SyncRequest)
    })
  }

  /** Settles the sync asked for if the thread has ended it. */
  private hear(): void {
    if (this.asked && this.thread && Atomics.load(this.thread.ended, 0) >= this.asked.seq) this.settle(this.asked.seq)
  }

  /** Settles sync `seq` once (the check and the message both report it). */
  private settle(seq: number, error?: Error): void {
    const asked = this.asked
    if (asked?.seq !== seq) return
    this.asked = undefined
    clearTimeout(asked.patience)
    asked.stopHearing()
    this.thread?.worker.unref()
    if (error) asked.reject(error)
    else asked.resolve()
  }

  /** The thread did not answer sync `seq` in time: it runs on libuv's pool, and the thread is let go. */
  private unanswered(seq: number): void {
    const asked = this.asked
    if (asked?.seq !== seq) return
    this.letGo(asked.worker, new Error(`The log's sync thread did not answer in ${THREAD_PATIENCE_MS} ms.`))
    this.onPool(asked)
  }

  /** The sync asked, run again on libuv's pool (after the same fsync's start on the thread: a second sync covers as much). */
  private onPool(asked: Asked): void {
    asked.log.sync().then(
      () => this.settle(asked.seq),
      (err: Error) => this.settle(asked.seq, err),
    )
  }

  /**
   * A thread that could not start (out of descriptors), died or did not answer is not a disk's
   * failure: it is let go, and the next sync tries another after THREAD_RETRY_MS. False when it
   * was let go already.
   */
  private letGo(worker: Worker, err: Error): boolean {
    if (this.thread?.worker !== worker) return false
    this.thread = undefined
    this.threadFailedAt = performance.now()
    logger().warn({ err }, 'db.log_sync_thread_failed')
    void worker.terminate()
    return true
  }

  private startThread(): SyncThread {
    const ended = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
    const worker = libsqlWorker(this.body, { ended: ended.buffer as SharedArrayBuffer })
    worker.on('message', ({ seq, error }: SyncAnswer) => this.settle(seq, error && Object.assign(new Error(error.message), { code: error.code })))
    // The sync it was asked for runs again on libuv's pool.
    const lost = (err: Error) => {
      if (this.letGo(worker, err) && this.asked) this.onPool(this.asked)
    }
    worker.on('error', lost)
    worker.on('exit', (code) => lost(new Error(`The log's sync thread exited (code ${code}).`)))
    // Held only while a sync is asked (`onThread`); after the listeners, which hold it again when added.
    worker.unref()
    return { worker, ended }
  }

  private async once(): Promise<void> {
    try {
      await this.syncLog()
    } catch (err) {
      // No log (not in WAL mode, or the last connection removed it at close): nothing to sync.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
      throw err
    }
    // The log's name in its directory, once per process: SQLite syncs it at the log's first sync,
    // which under synchronous = NORMAL is the first fold's, not a commit's. Like SQLite, a failure
    // here is not a write's (some file systems refuse to sync a directory): logged, not retried.
    if (!this.entrySynced) {
      this.entrySynced = true
      await syncFile(path.dirname(path.resolve(this.file))).catch((err: unknown) => logger().warn({ err }, 'db.log_directory_sync_failed'))
    }
    this.done += 1
  }
}
