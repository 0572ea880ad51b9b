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
import { CHECKPOINT_BYTES } from '../walPragmas'
import { checkpointWorker, type CheckpointResult } from './checkpointWorker'
import { libsqlWorker } from './libsqlWorker'
import { writesStopped } from './writeGate'

type Checkpointer = { file: string; worker: Worker; running: boolean; exited: Promise<void> }

/** After a worker failed, the wait before another is started (a failure is logged, not repeated per write). */
const RETRY_MS = 10_000

let current: Checkpointer | undefined
let failedAt = -Infinity

function start(file: string): Checkpointer {
  const worker = libsqlWorker(checkpointWorker, { file })
  // It never keeps a process alive; stopCheckpoints() ends it in an orderly way.
  worker.unref()
  const checkpointer: Checkpointer = {
    file,
    worker,
    running: false,
    exited: new Promise((resolve) => worker.once('exit', () => resolve())),
  }
  worker.on('message', (result: CheckpointResult) => {
    checkpointer.running = false
    if (result.error) logger().warn({ err: result.error }, 'db.wal_checkpoint_failed')
  })
  worker.on('error', (err) => {
    logger().error({ err }, 'db.wal_checkpointer_failed')
    failedAt = performance.now()
    if (current === checkpointer) current = undefined
  })
  return checkpointer
}

/** After a write of this process: a log past CHECKPOINT_BYTES is folded in the background, one checkpoint at a time. */
export function checkpointWhenLong(file: string): void {
  if (current?.running && current.file === file) return
  // A log whose sync failed may hold pages the disk never got: nothing folds it into the file.
  if (writesStopped()) return
  const size = statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0
  if (size <= CHECKPOINT_BYTES || performance.now() - failedAt < RETRY_MS) return
  // Another file (a test's, a restored one): its own connection.
  if (current && current.file !== file) void stopCheckpoints()
  current ??= start(file)
  current.running = true
  current.worker.postMessage('checkpoint')
}

/** Lets a running checkpoint finish, then closes the worker's connection (shutdown, before the last fold). */
export async function stopCheckpoints(): Promise<void> {
  const stopping = current
  current = undefined
  if (!stopping) return
  // Held by its exit from here: a script awaiting this with nothing else pending must not end first.
  stopping.worker.ref()
  stopping.worker.postMessage('stop')
  await stopping.exited
}
