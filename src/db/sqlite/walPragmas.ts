/**
 * How every connection that writes in a serving process keeps its log (the write path's
 * checkpoints and syncs, ./writes, rely on it; the connections, ./connection, set it).
 */

/** SQLite's own trigger (1,000 pages of 4 KiB), as bytes of log file. */
export const CHECKPOINT_BYTES = 4 * 1024 * 1024

/** For every connection that writes in a serving process: no checkpoint inside a commit; the log's file cut back after a restart. */
// synchronous = NORMAL: a COMMIT writes the log without syncing it on this thread; ./writes/walSync
// syncs it off the thread before the write is answered.
export const SERVING_WAL_PRAGMAS = ['PRAGMA wal_autocheckpoint = 0', `PRAGMA journal_size_limit = ${CHECKPOINT_BYTES}`, 'PRAGMA synchronous = NORMAL']
