/**
 * A worker thread for the work that must not hold the serving thread: the write-ahead log's fold
 * (./checkpointWorker) and sync (./syncWorker), and a backup's copy (../backupWorker).
 * A worker's body is a function in a module of its own (type-checked, linted, in the import graph),
 * run by its source text (`eval`: nothing for a bundler to follow, the same in the compiled server,
 * Next's build and the tests). So a body must be self-contained: it uses only what it is handed
 * (its data, its port, node:fs, and libsql's Database, resolved here from the project root, where
 * every entry point runs, and loaded on first use: the sync's thread never opens SQLite) and declares no named inner function (a transpiler keeping names would add a helper
 * the worker does not have); test/db/libsqlWorker.test.ts holds every body to that.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { type MessagePort, Worker } from 'node:worker_threads'

import type fs from 'node:fs'

import type Database from 'libsql'

/** What a worker's body is handed. */
export type LibsqlWorkerScope<D> = { data: D; port: MessagePort | null; fs: typeof fs; Database: typeof Database }

/** A worker's body: it runs on the worker thread, with nothing but its scope. */
export type LibsqlWorkerBody<D> = (scope: LibsqlWorkerScope<D>) => void

/** The script a worker runs: `body`'s source, called with its scope. */
export const workerScript = <D>(body: LibsqlWorkerBody<D>): string =>
  [
    "const { parentPort, workerData } = require('node:worker_threads')",
    `;(${body.toString()})({ data: workerData.data, port: parentPort, fs: require('node:fs'), get Database() { return require(workerData.libsql) } })`,
  ].join('\n')

export function libsqlWorker<D>(body: LibsqlWorkerBody<D>, data: D): Worker {
  const libsql = createRequire(path.join(process.cwd(), 'package.json')).resolve('libsql')
  return new Worker(workerScript(body), { eval: true, workerData: { data, libsql } })
}
