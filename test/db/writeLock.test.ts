/**
 * Another process's SQLite write lock is waited for on a timer (src/db/sqlite/writeLock.ts), not
 * inside the native call: while a second process holds the lock, the waiting process's event loop
 * keeps turning (its timers run, its begin stays pending) and the begin succeeds once the lock is
 * let go; past its patience it is SQLITE_BUSY, and the connection keeps its busy_timeout for the
 * statements of a transaction. A second process holds the lock for as long as the test says.
 */
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'

import { BUSY_TIMEOUT_MS } from '../../src/db/sqlite/connection'
import { beginImmediate, nextLockWait } from '../../src/db/sqlite/writeLock'
import { killLockHolders, lockHolder, timerTurnsWhile } from '../support/lockHolder'

const open: Database.Database[] = []

function walDatabase(): { file: string; db: Database.Database } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'write-lock-')), 'db.sqlite')
  const db = new Database(file)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  db.exec('CREATE TABLE t (x INTEGER)')
  open.push(db)
  return { file, db }
}

afterEach(() => {
  killLockHolders()
  for (const db of open.splice(0)) db.close()
})

describe("another process's write lock, waited for on a timer", () => {
  it('leaves the event loop turning while the other process holds the lock, and begins once it lets go', async () => {
    const { file, db } = walDatabase()
    const holder = lockHolder(file, 'INSERT INTO t VALUES (1)')
    await holder.held
    let begun = false
    const beginning = beginImmediate(db).then(() => (begun = true))
    // Timers of this process run while it waits: a native busy wait would hold them all.
    const turns = await timerTurnsWhile(beginning)
    expect({ turns, begun }).toEqual({ turns: 5, begun: false })
    holder.release()
    await holder.released
    await beginning
    expect(db.inTransaction).toBe(true)
    db.prepare('INSERT INTO t VALUES (2)').run()
    db.exec('COMMIT')
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 })
  })

  it("is SQLITE_BUSY past its patience, with nothing begun and the connection's busy_timeout kept", async () => {
    const { file, db } = walDatabase()
    const holder = lockHolder(file, 'INSERT INTO t VALUES (1)')
    await holder.held
    await expect(beginImmediate(db, 30)).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
    expect(db.inTransaction).toBe(false)
    expect(db.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: BUSY_TIMEOUT_MS })
    holder.release()
    await holder.released
    await beginImmediate(db)
    db.exec('ROLLBACK')
  })

  it('tries again every few milliseconds however long it has waited: the release is seen soon after', () => {
    // A waiter learns of the release only at its next try; at 16 ms between tries a waiter often
    // noticed it a quarter of its whole wait late (docs/benchmarks.md, *Writes first in a turn*).
    const waits = [1]
    for (let i = 0; i < 6; i++) waits.push(nextLockWait(waits.at(-1)!))
    expect(waits).toEqual([1, 2, 4, 4, 4, 4, 4])
  })

  it('begins at once when no other process writes', async () => {
    const { db } = walDatabase()
    await beginImmediate(db)
    expect(db.inTransaction).toBe(true)
    db.exec('ROLLBACK')
  })
})
