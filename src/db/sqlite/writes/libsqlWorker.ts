/**
 * A worker thread that opens SQLite with libsql: the script is evaluated (nothing for a bundler to
 * follow) and finds libsql at `workerData.libsql`, resolved here from the project root, where every
 * entry point runs (a bundle's own location says nothing). Used for the work that must not hold the
 * serving thread: the write-ahead log's fold (./walCheckpoints) and a backup's copy (../backup).
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { Worker } from 'node:worker_threads'

export function libsqlWorker(script: string, data: Record<string, unknown>): Worker {
  const libsql = createRequire(path.join(process.cwd(), 'package.json')).resolve('libsql')
  return new Worker(script, { eval: true, workerData: { ...data, libsql } })
}
