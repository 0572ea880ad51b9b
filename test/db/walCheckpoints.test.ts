/**
 * The write-ahead log is folded off the serving thread (issue 37): SQLite's automatic checkpoint
 * ran inside the COMMIT that took the log past 1,000 pages, 80-120 ms on the event loop at 1M
 * items. Every connection a serving process writes with has it off, and a worker thread folds a
 * log past CHECKPOINT_BYTES after a write of the process (src/db/sqlite/writes/walCheckpoints.ts).
 * Measured on this file's own database: the log's file length says whether anyone folded it.
 */
import { statSync } from 'node:fs'

import type { Client } from '@libsql/client'
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { CHECKPOINT_BYTES, connection, sqliteFileOf } from '../../src/db/sqlite/connection'
import { writesTo } from '../../src/db/sqlite/writes'
import { testApp, type TestApp } from '../support/app'

const sqlite = getConfig().database.engine === 'sqlite'
const BLOB = 64 * 1024

let app: TestApp
let file: string
/** This process's write path to the test's file: the one Payload's adapter and the engine write through. */
const writes = () => writesTo(file)

const walBytes = () => statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
const rows = () => Number((connection(file).prepare('SELECT count(*) FROM raw_test_wal').raw(true).get() as unknown[])[0])
/** `pragma` as each connection that writes reads it: the service's, Payload's client, a Payload transaction's. */
async function everyWriter(pragma: string): Promise<unknown[][]> {
  const client = (app.payload.db as unknown as { client: Client }).client
  const tx = await client.transaction('write')
  try {
    return [
      connection(file).prepare(pragma).raw(true).get() as unknown[],
      Object.values((await client.execute(pragma)).rows[0]!),
      Object.values((await tx.execute(pragma)).rows[0]!),
    ]
  } finally {
    await tx.rollback()
  }
}

/** A write as the service makes it: under this process's write gate. */
const gatedInsert = (bytes: number) => writes().under(() => connection(file).prepare('INSERT INTO raw_test_wal (b) VALUES (randomblob(?))').run(bytes))

describe.runIf(sqlite)('the write-ahead log, folded off the serving thread', () => {
  beforeAll(async () => {
    app = await testApp()
    file = sqliteFileOf(getConfig().database.uri)
    await writes().under(() => connection(file).exec('CREATE TABLE IF NOT EXISTS raw_test_wal (b BLOB)'))
  })

  it('no connection that writes checkpoints inside its commit: the service\'s, Payload\'s client, Payload\'s transactions', async () => {
    expect(await everyWriter('PRAGMA wal_autocheckpoint')).toEqual([[0], [0], [0]])
    // And the log's file is cut back to a fold's size on each of them (Payload's client is the
    // write path's, set up as the others: src/db/sqlite/writes/queuedClient).
    expect(await everyWriter('PRAGMA journal_size_limit')).toEqual([[CHECKPOINT_BYTES], [CHECKPOINT_BYTES], [CHECKPOINT_BYTES]])
  })

  it('no connection that writes syncs the log inside its commit (synchronous NORMAL): an fsync on this thread waits for the disk', async () => {
    // FULL (SQLite's default) made every COMMIT an fsync of the log on the event loop; beside a
    // fold's writes and the request log's (docs/benchmarks.md, *Measurements behind the code*).
    expect(await everyWriter('PRAGMA synchronous')).toEqual([[1], [1], [1]])
  })

  it('a write is answered only once the log holding it is on disk: synced off this thread, one sync for the writes committed meanwhile', async () => {
    const before = writes().log.done
    await gatedInsert(16)
    const afterWrite = writes().log.done
    expect(afterWrite, 'a sync completed before the write resolved').toBeGreaterThan(before)
    // Payload's transactions too.
    const client = (app.payload.db as unknown as { client: Client }).client
    const tx = await client.transaction('write')
    await tx.execute('INSERT INTO raw_test_wal (b) VALUES (randomblob(16))')
    await tx.commit()
    const afterCommit = writes().log.done
    expect(afterCommit).toBeGreaterThan(afterWrite)
    // Twenty writes at once: each waits for a sync begun after its commit, shared with the others.
    const rowsBefore = rows()
    await Promise.all(Array.from({ length: 20 }, () => gatedInsert(16)))
    expect(rows()).toBe(rowsBefore + 20)
    expect(writes().log.done).toBeGreaterThan(afterCommit)
    expect(writes().log.done - afterCommit, 'syncs shared by the writes committed while one ran').toBeLessThan(20)
  })

  it('a log written past the trigger by writes outside the gate stays unfolded (nothing on this thread folds it)', async () => {
    const before = rows()
    // Three times SQLite's trigger, in writes no gate sees: with its automatic checkpoint the
    // log would have been folded and restarted at 1,000 pages, its file never much past 4 MiB.
    const insert = connection(file).prepare('INSERT INTO raw_test_wal (b) VALUES (randomblob(?))')
    for (let i = 0; i < (3 * CHECKPOINT_BYTES) / BLOB; i++) insert.run(BLOB)
    expect(walBytes()).toBeGreaterThan(3 * CHECKPOINT_BYTES)
    expect(rows()).toBe(before + (3 * CHECKPOINT_BYTES) / BLOB)
  })

  it("the next write of the process folds it in the worker, not on this thread, and the log's file is cut back to the trigger", async () => {
    // How long the loop waited is the bench's to report (docs/benchmarks.md), not a wall clock's here:
    // this thread's connections never fold (wal_autocheckpoint 0, above), and the folds are the worker's.
    const folds = writes().checkpoints.folds
    await gatedInsert(16)
    // The fold runs beside this thread; a later write restarts the log once all of it is in the file.
    const deadline = Date.now() + 20_000
    while (walBytes() > CHECKPOINT_BYTES && Date.now() < deadline) {
      await pause(20)
      await gatedInsert(16)
    }
    expect(walBytes()).toBeLessThanOrEqual(CHECKPOINT_BYTES)
    expect(writes().checkpoints.folds).toBeGreaterThan(folds)
    // Everything written is there, from the file itself.
    expect(connection(file).prepare('PRAGMA integrity_check').raw(true).get()).toEqual(['ok'])
  })

  it('writes through the gate keep the log bounded: it is folded as it grows, never left to grow', async () => {
    let longest = 0
    for (let i = 0; i < (8 * CHECKPOINT_BYTES) / BLOB; i++) {
      await gatedInsert(BLOB)
      longest = Math.max(longest, walBytes())
      // A worker's fold takes a few milliseconds; the writes of a server are spread out in time too.
      await pause(1)
    }
    expect(longest).toBeLessThan(3 * CHECKPOINT_BYTES)
  })
})
