/**
 * The change feed's shortcut (src/db/sqlite/walIndexHeader.ts) rests on SQLite's WAL index
 * format as the pinned libsql writes it: the `-shm` file's first 96 bytes move on every commit,
 * by any connection or process, a checkpoint's restart of the log included, and on nothing a
 * reader or an abandoned transaction does. If a libsql upgrade changes that (a WAL of its own, an
 * index kept elsewhere), these fail before the feed misses a write. The feed seeing another
 * process's commits within the stated bound is test/freshnessBound.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'

import { SERVING_WAL_PRAGMAS } from '../../src/db/sqlite/connection'
import { WalIndexHeader } from '../../src/db/sqlite/walIndexHeader'

const root = path.resolve(import.meta.dirname, '../..')
const open: Database.Database[] = []

/** A database in WAL mode, its connections set as a serving process sets them. */
function walDatabase(): { file: string; connect: () => Database.Database } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'wal-index-')), 'db.sqlite')
  const connect = () => {
    const db = new Database(file)
    db.exec('PRAGMA journal_mode = WAL')
    for (const pragma of SERVING_WAL_PRAGMAS) db.exec(pragma)
    open.push(db)
    return db
  }
  connect().exec('CREATE TABLE t (x INTEGER)')
  return { file, connect }
}

afterEach(() => {
  for (const db of open.splice(0)) db.close()
})

describe('the WAL index header, as the pinned libsql keeps it', () => {
  it('is the libsql version these tests were written against (read the format again on an upgrade)', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'node_modules/libsql/package.json'), 'utf8')) as { version: string }
    expect(pkg.version).toBe('0.4.7')
  })

  it('moves on a commit, and on nothing a reader or a rolled-back transaction does', () => {
    const { file, connect } = walDatabase()
    const writer = connect()
    const reader = connect()
    const header = WalIndexHeader.of(file)
    expect(header.moved()).toBe(true) // the first look has nothing to compare with
    expect(header.moved()).toBe(false)

    reader.prepare('SELECT count(*) FROM t').get()
    reader.exec('BEGIN')
    reader.prepare('SELECT * FROM t').all()
    reader.exec('COMMIT')
    expect(header.moved()).toBe(false)

    writer.exec('BEGIN IMMEDIATE')
    writer.prepare('INSERT INTO t VALUES (1)').run()
    expect(header.moved()).toBe(false) // not committed: nothing to see
    writer.exec('ROLLBACK')
    expect(header.moved()).toBe(false)

    writer.prepare('INSERT INTO t VALUES (2)').run()
    expect(header.moved()).toBe(true)
    expect(header.moved()).toBe(false)
  })

  it("moves on every commit after a checkpoint restarted the log (the same offsets written again)", () => {
    const { file, connect } = walDatabase()
    const writer = connect()
    const header = WalIndexHeader.of(file)
    for (let i = 0; i < 3; i++) {
      writer.prepare('INSERT INTO t VALUES (?)').run(i)
      header.moved()
      writer.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      header.moved()
      writer.prepare('INSERT INTO t VALUES (?)').run(i)
      expect(header.moved()).toBe(true)
    }
  })

  it("moves on another process's commit", () => {
    const { file, connect } = walDatabase()
    connect()
    const header = WalIndexHeader.of(file)
    header.moved()
    const script = `const Database = require('libsql'); const db = new Database(${JSON.stringify(file)}); db.prepare('INSERT INTO t VALUES (3)').run(); db.close()`
    execFileSync(process.execPath, ['-e', script], { cwd: root })
    expect(header.moved()).toBe(true)
  })

  it("a look leaves this process's SQLite locks held: another process still waits for a write transaction open here", () => {
    // POSIX drops every lock a process holds on a file when it closes any descriptor of that
    // file: a look that opened and closed the -shm file let another process write beside an
    // open transaction (found by the two-worker bench as two processes stalled 10 s).
    const { file, connect } = walDatabase()
    const writer = connect()
    const header = WalIndexHeader.of(file)
    const otherProcessWrites = () => {
      const script = `const Database = require('libsql'); const db = new Database(${JSON.stringify(file)}); db.exec('PRAGMA busy_timeout = 0'); try { db.exec('BEGIN IMMEDIATE'); db.exec('ROLLBACK'); process.stdout.write('wrote') } catch (err) { process.stdout.write(String(err.code)) } finally { db.close() }`
      return execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })
    }
    expect(otherProcessWrites()).toBe('wrote')
    writer.exec('BEGIN IMMEDIATE')
    writer.prepare('INSERT INTO t VALUES (4)').run()
    expect(otherProcessWrites()).toBe('SQLITE_BUSY')
    for (let i = 0; i < 3; i++) header.moved()
    expect(otherProcessWrites()).toBe('SQLITE_BUSY')
    writer.exec('COMMIT')
    expect(header.moved()).toBe(true)
    expect(otherProcessWrites()).toBe('wrote')
  })

  it('follows the file now at the path: a database put in place of another is read, not the old one', () => {
    const { file, connect } = walDatabase()
    connect()
    const header = WalIndexHeader.of(file)
    header.moved()
    for (const db of open.splice(0)) db.close()
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
    const replaced = connect()
    replaced.exec('CREATE TABLE t (x INTEGER)')
    header.moved()
    expect(header.moved()).toBe(false)
    replaced.prepare('INSERT INTO t VALUES (5)').run()
    expect(header.moved()).toBe(true)
  })

  it('answers "moved" whenever it cannot read the header: no -shm file, a database not in WAL mode', () => {
    const missing = WalIndexHeader.of(path.join(os.tmpdir(), 'no-such-database.sqlite'))
    expect(missing.moved()).toBe(true)
    expect(missing.moved()).toBe(true)

    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'wal-index-')), 'rollback.sqlite')
    const db = new Database(file)
    open.push(db)
    db.exec('CREATE TABLE t (x INTEGER)')
    const header = WalIndexHeader.of(file)
    expect(header.moved()).toBe(true)
    expect(header.moved()).toBe(true)
  })
})
