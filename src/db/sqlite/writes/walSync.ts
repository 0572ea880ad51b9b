/**
 * A write's durability, off the serving thread. SQLite's default (synchronous = FULL) syncs the
 * write-ahead log inside every COMMIT: an fsync on the event loop, which waits for the disk and
 * for whatever else the file system must write first (a fold's pages, the request log's appends).
 * At a million items one such COMMIT held most of a loop delay, the thread asleep in the kernel
 * (docs/benchmarks.md, *Measurements behind the code*). So the connections that write commit with synchronous = NORMAL (the log is written,
 * not synced; SQLite stays consistent across a power loss, ./walCheckpoints' SERVING_WAL_PRAGMAS),
 * and a write's caller hears of it only after the log file is synced here, by libuv's thread
 * pool (./writeGate). A process crash loses nothing (the log is in the OS); an answered write
 * survives a power loss, as with FULL.
 *
 * Group commit: writes committed while a sync runs share the next one (begun after their
 * commits, so it covers them); one sync at a time per file. The log stays open between syncs: an
 * open and a close around each sync were two more turns of the thread pool that every write's
 * answer waited for, each a whole turn of the loop behind the reads under load
 * (docs/benchmarks.md, *The mixed row in every shape*).
 */
import { fstatSync } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

import { logger } from '../../../platform/logging'
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

/** One file's log syncs: one at a time, writes committed while one runs sharing the next. */
export class LogSync {
  private running: Promise<void> | undefined
  private next: Promise<void> | undefined
  private entrySynced = false
  /** The log, open since the first sync (while its file is the log's). */
  private log: FileHandle | undefined
  /** Syncs completed so far (tests read it: a write waited for one). */
  done = 0
  /** Times the log was opened (once, and again after SQLite made a new one). */
  opened = 0

  constructor(readonly file: string) {}

  /** Resolves once everything committed to the log before this call is on disk. */
  sync(): Promise<void> {
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

  /** Lets the kept log go (shutdown). */
  close(): void {
    const log = this.log
    this.log = undefined
    void log?.close().catch(() => undefined)
  }

  private async syncLog(): Promise<void> {
    if (this.log && removed(this.log)) this.close()
    if (!this.log) {
      this.log = await openPatiently(`${this.file}-wal`)
      this.opened += 1
    }
    await this.log.sync()
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
