/**
 * The SQLite write path is one object per file (src/db/sqlite/writes/: `writesTo(file)`), its state
 * its own: every writer of the process to a file finds the same gate, and a file's queue, stop or
 * durability is not another file's. The service's own connection (src/db/sqlite/connection) is
 * one object per file too.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import Database from 'libsql'
import { describe, expect, it } from 'vitest'

import { CHECKPOINT_BYTES, closeConnection, serviceConnection } from '../../src/db/sqlite/connection'
import { type LibsqlWorkerBody, writesTo } from '../../src/db/sqlite/writes'
import { LogSync } from '../../src/db/sqlite/writes/walSync'
import { inSlices } from '../../src/platform/loopSlices'
import { TSX } from '../support/tsxChild'

function freshFile(name: string): { file: string; db: InstanceType<typeof Database> } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sqlite-writes-')), `${name}.db`)
  const db = new Database(file)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('CREATE TABLE t (n INTEGER)')
  return { file, db }
}

const count = (db: InstanceType<typeof Database>) => (db.prepare('SELECT count(*) FROM t').raw(true).get() as number[])[0]

describe('the write path, one object per file', () => {
  it('every writer of a file finds the same one; another file has its own', () => {
    const a = freshFile('a')
    const b = freshFile('b')
    expect(writesTo(a.file)).toBe(writesTo(a.file))
    expect(writesTo(b.file)).not.toBe(writesTo(a.file))
    expect(writesTo(b.file).gate).not.toBe(writesTo(a.file).gate)
  })

  it("a write to one file does not queue behind another file's writer", async () => {
    const a = freshFile('queue-a')
    const b = freshFile('queue-b')
    let letAGo!: () => void
    const holding = writesTo(a.file).under(() => new Promise<void>((resolve) => (letAGo = resolve)))
    // A's writer holds its gate; B's write is answered meanwhile (its log synced: a fresh instance has its durability).
    await writesTo(b.file).under(() => b.db.prepare('INSERT INTO t (n) VALUES (1)').run())
    expect(count(b.db)).toBe(1)
    expect(writesTo(b.file).log.done).toBeGreaterThan(0)
    letAGo()
    await holding
    // A's next writer queued behind the one that held it, and is answered in turn.
    await writesTo(a.file).under(() => a.db.prepare('INSERT INTO t (n) VALUES (2)').run())
    expect(count(a.db)).toBe(1)
  })

  it("a failed log sync stops that file's writes only", async () => {
    const a = freshFile('stop-a')
    const b = freshFile('stop-b')
    writesTo(a.file).gate.setDurability(() => Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })))
    await expect(writesTo(a.file).under(() => a.db.prepare('INSERT INTO t (n) VALUES (1)').run())).rejects.toMatchObject({
      status: 503,
      code: 'service.unavailable',
      details: { committed: true },
    })
    expect(writesTo(a.file).stopped).toBeDefined()
    await expect(writesTo(a.file).under(() => a.db.prepare('INSERT INTO t (n) VALUES (2)').run())).rejects.toMatchObject({ status: 503, details: undefined })
    expect(count(a.db)).toBe(1)
    // The other file's writes go on.
    expect(writesTo(b.file).stopped).toBeUndefined()
    await writesTo(b.file).under(() => b.db.prepare('INSERT INTO t (n) VALUES (1)').run())
    expect(count(b.db)).toBe(1)
  })
})

describe("the log's sync", () => {
  it("a counter's write (a rate-limit hit) is answered at its commit, its sync behind it; a sync that fails behind it still stops writes", async () => {
    const { file, db } = freshFile('counted')
    const writes = writesTo(file)
    const syncs: { resolve: () => void; reject: (err: Error) => void }[] = []
    writes.gate.setDurability(() => new Promise<void>((resolve, reject) => syncs.push({ resolve, reject })))
    const insert = (n: number) => () => db.prepare('INSERT INTO t (n) VALUES (?)').run(n)
    // Answered while its sync is still running.
    await writes.counted(insert(1))
    expect(syncs).toHaveLength(1)
    expect(count(db)).toBe(1)
    // A write a caller is told was saved waits for its own sync.
    let saved = false
    const save = writes.under(insert(2)).then(
      () => (saved = true),
      (err: unknown) => err,
    )
    while (syncs.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(saved).toBe(false)
    // The counter's sync fails behind it: writes stop; the save's own sync succeeding after it promises nothing.
    syncs[0]!.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }))
    while (!writes.stopped) await new Promise((resolve) => setTimeout(resolve, 5))
    syncs[1]!.resolve()
    expect(await save).toMatchObject({ status: 503, code: 'service.unavailable', details: { committed: true } })
    await expect(writes.counted(insert(3))).rejects.toMatchObject({ status: 503, details: undefined })
    expect(count(db)).toBe(2)
  })

  it('keeps the log open between syncs, and opens the new one once SQLite removed it (every connection closed) and made another', async () => {
    let { file, db } = freshFile('kept-log')
    const writes = writesTo(file)
    const insert = (n: number) => writes.under(() => db.prepare('INSERT INTO t (n) VALUES (?)').run(n))
    for (let n = 0; n < 5; n++) await insert(n)
    expect(writes.log.done).toBe(5)
    expect(writes.log.opened).toBe(1)
    // The log folded whole and removed, as SQLite removes it when the last connection closes (libsql
    // leaves it: removed here); the next write makes a new file under the same name.
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    db.close()
    rmSync(`${file}-wal`)
    db = new Database(file)
    await insert(5)
    expect(existsSync(`${file}-wal`)).toBe(true)
    expect(writes.log.opened).toBe(2)
    await insert(6)
    expect(writes.log.opened).toBe(2)
    expect(count(db)).toBe(7)
    await writes.close()
    db.close()
  })
})

describe("hearing the log's sync", () => {
  it("a write's answer goes on between two statements of the turn its sync ended in, not a turn of the loop later", async () => {
    const { file, db } = freshFile('heard-between')
    const writes = writesTo(file)
    const insert = (n: number) => writes.under(() => db.prepare('INSERT INTO t (n) VALUES (?)').run(n))
    await insert(1)
    // Loop iterations, counted by a timer (timers run first in each; the sync's message, before,
    // reached this thread in the poll phase after them).
    let iterations = 0
    const ticker = setInterval(() => (iterations += 1), 1)
    try {
      let heardAt = -1
      const answered = insert(2).then(() => (heardAt = iterations))
      // The sync has been asked of its thread (one turn), then a statement holds this thread until
      // the thread has ended it: its message waits for a poll phase that cannot come.
      await new Promise((resolve) => setImmediate(resolve))
      let endedAt = -1
      await inSlices(async () => {
        const sleeper = new Int32Array(new SharedArrayBuffer(4))
        for (let i = 0; i < 10_000 && writes.log.ended < 2; i++) Atomics.wait(sleeper, 0, 0, 1)
        endedAt = iterations
      })
      expect(writes.log.ended, "the second sync ended on its thread").toBe(2)
      // The next statement, in this turn: the answer goes on from there, before any timer runs.
      await inSlices(async () => undefined)
      await answered
      expect(heardAt).toBe(endedAt)
      expect(writes.log.done).toBe(2)
    } finally {
      clearInterval(ticker)
      await writes.close()
      db.close()
    }
  })

  it('a sync asked between the end of one and the start of the next shares the next: every write is answered', async () => {
    const { file, db } = freshFile('between-syncs')
    db.prepare('INSERT INTO t (n) VALUES (1)').run()
    const log = new LogSync(file)
    const first = log.sync()
    const second = log.sync()
    // Asked once the first has ended, before the one queued behind it has begun (a caller resumed
    // by the first's end commits and asks in the same turn): it began a sync of its own beside the
    // queued one, and the thread's one slot for a sync asked lost it, so that write was never answered.
    const third = first.then(() => log.sync())
    const answered = await Promise.race([
      Promise.all([first, second, third]).then(() => 'all answered'),
      new Promise((resolve) => setTimeout(() => resolve('a sync never answered'), 10_000)),
    ])
    expect(answered).toBe('all answered')
    expect(log.done).toBe(2)
    await log.close()
    db.close()
  }, 20_000)

  it('a sync its thread never answers runs on libuv\'s pool after the patience: the write is answered, the thread let go, and a close does not wait for ever', async () => {
    const { file, db } = freshFile('unanswered')
    db.prepare('INSERT INTO t (n) VALUES (1)').run()
    // A thread that takes every request and answers none.
    const silent: LibsqlWorkerBody<{ ended: SharedArrayBuffer }> = ({ port }) => {
      port?.on('message', () => undefined)
    }
    const log = new LogSync(file, silent)
    await log.sync()
    expect(log.done).toBe(1)
    expect(log.ended).toBe(0)
    // Let go: the next syncs run on the pool (no thread for a while), answered as soon as they end.
    await log.sync()
    expect(log.done).toBe(2)
    // A sync asked of a silent thread, then a close (shutdown): both end.
    const again = new LogSync(file, silent)
    const pending = again.sync()
    await again.close()
    await pending
    expect(again.done).toBe(1)
    db.close()
  }, 20_000)

  /**
   * Runs `body` as a script of its own on a fresh file (`db` opened on it, `writesTo` and `file`
   * in scope) and returns what it printed; a script still running at `timeout` is killed.
   */
  const runScript = async (name: string, body: string[], timeout = 0) => {
    const { file, db } = freshFile(name)
    db.close()
    const script = path.join(path.dirname(file), `${name}.mts`)
    writeFileSync(
      script,
      [
        `import Database from ${JSON.stringify(createRequire(import.meta.url).resolve('libsql'))}`,
        `import { writesTo } from ${JSON.stringify(path.resolve('src/db/sqlite/writes/index.ts'))}`,
        `const file = ${JSON.stringify(file)}`,
        `const db = new Database(file)`,
        ...body,
      ].join('\n'),
    )
    return (await promisify(execFile)(process.execPath, [...TSX, script], { timeout })).stdout.trim()
  }

  it("a script awaiting its write, with nothing else pending, is not ended before each sync's answer", async () => {
    const stdout = await runScript('script-write', [
      `await writesTo(file).under(() => db.prepare('INSERT INTO t (n) VALUES (7)').run())`,
      // The second asks the sync's thread again once the first's answer let it go, and nothing else is pending.
      `await new Promise((resolve) => setTimeout(resolve, 50))`,
      `await writesTo(file).under(() => db.prepare('INSERT INTO t (n) VALUES (8)').run())`,
      `console.log('answered', writesTo(file).log.done)`,
    ])
    expect(stdout).toBe('answered 2')
  })

  it("a script whose write started the log's fold ends once it is done: the fold's worker does not hold the process", async () => {
    const stdout = await runScript(
      'script-fold',
      [
        `db.exec('PRAGMA wal_autocheckpoint = 0')`,
        `const insert = db.prepare('INSERT INTO t (n) VALUES (randomblob(65536))')`,
        // The log past the trigger, then one write of the process: its release starts the fold's worker.
        `for (let i = 0; i < ${CHECKPOINT_BYTES / 65_536 + 8}; i++) insert.run()`,
        `const writes = writesTo(file)`,
        `await writes.under(() => insert.run())`,
        `while (writes.checkpoints.folds === 0) await new Promise((resolve) => setTimeout(resolve, 10))`,
        // Nothing closed: the process ends by itself, as a script that forgets to close does.
        `console.log('folded', writes.checkpoints.folds)`,
      ],
      // Held by the worker, it would never end: killed at the bound, the call rejects.
      60_000,
    )
    expect(stdout).toBe('folded 1')
  }, 90_000)
})

describe("the service's own connection, one object per file", () => {
  it("a file's connection and its statements stay open while another file's is used; a close is that file's alone", () => {
    const a = freshFile('service-a')
    const b = freshFile('service-b')
    a.db.exec('INSERT INTO t (n) VALUES (1)')
    const onA = serviceConnection(a.file)
    const handleA = onA.handle
    const countA = onA.statement('SELECT count(*) FROM t')
    serviceConnection(b.file).statement('INSERT INTO t (n) VALUES (2)').run()
    // Before, one connection served the process: using B's closed A's, and A's kept statement with it.
    expect(onA.handle).toBe(handleA)
    expect(countA.get()).toEqual([1])
    closeConnection(b.file)
    expect(onA.handle).toBe(handleA)
    expect(serviceConnection(b.file).handle).not.toBe(handleA)
    expect(count(b.db)).toBe(1)
    closeConnection(a.file)
    expect(serviceConnection(a.file).handle).not.toBe(handleA) // opened again at the next use
  })
})

describe("the log's background fold after shutdown", () => {
  it('once stopped, a long log starts no worker: nothing may still be folding when the process exits', async () => {
    const { file, db } = freshFile('stopped-folds')
    db.exec('PRAGMA wal_autocheckpoint = 0')
    const checkpoints = writesTo(file).checkpoints
    await checkpoints.stop()
    // A log well past the fold's threshold.
    for (let i = 0; i < 80; i++) db.prepare('INSERT INTO t (n) VALUES (randomblob(65536))').run()
    const before = statSync(`${file}-wal`).size
    expect(before).toBeGreaterThan(CHECKPOINT_BYTES)
    checkpoints.whenLong()
    await new Promise((r) => setTimeout(r, 500))
    expect(checkpoints.folds).toBe(0)
    expect(statSync(`${file}-wal`).size).toBe(before)
  })
})
