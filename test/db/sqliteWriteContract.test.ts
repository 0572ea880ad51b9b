/**
 * The contract the SQLite write path's wrappers rest on (src/db/sqlite/writes/payloadWrites.ts,
 * installed by SqliteWrites.payloadAdapter; docs/architecture.md, "The SQLite write path's wrappers"): what each
 * library does today that a wrapper mends or relies on. A test here fails when the library's next
 * version changes that shape: an upgrade re-checks every wrapper, and drops the one whose defect
 * the library fixed.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { createClient } from '@libsql/client'
import { beginTransaction, commitTransaction } from '@payloadcms/drizzle'
import { Sqlite3Transaction } from '@libsql/client/sqlite3'
import { describe, expect, it } from 'vitest'

import { clientTransactionOf } from '../../src/db/sqlite/writes'
import { QueuedClient, QueuedTransaction } from '../../src/db/sqlite/writes/queuedClient'
import { getConfig } from '../../src/platform/config'
import { ApiError } from '../../src/platform/errors'
import { testApp } from '../support/app'

const root = path.resolve(import.meta.dirname, '../..')
// The library checks hold on any engine; the ones reading Payload's running adapter need it to be SQLite's.
const sqlite = getConfig().database.engine === 'sqlite'
// Read from the installed folder: not every package exports its package.json.
const versionOf = (folder: string) => (JSON.parse(readFileSync(path.join(root, 'node_modules', folder, 'package.json'), 'utf8')) as { version: string }).version

/** The versions every wrapper below was read against, in their code. */
const WRAPPED_AGAINST = {
  '@payloadcms/db-sqlite': '3.90.2',
  '@payloadcms/drizzle': '3.90.2',
  '@libsql/client': '0.14.0',
  libsql: '0.4.7',
  // The copy Payload's drizzle adapter runs (where a session keeps its transaction).
  '@payloadcms/drizzle/node_modules/drizzle-orm': '0.45.2',
}

describe("the SQLite write path's contract with its libraries", () => {
  it('runs on the versions its wrappers were checked against (an upgrade re-reads each of them, docs/architecture.md)', () => {
    expect(Object.fromEntries(Object.keys(WRAPPED_AGAINST).map((name) => [name, versionOf(name)]))).toEqual(WRAPPED_AGAINST)
  })

  it("Payload's drizzle adapter swallows a failed commit (commitTransaction: `catch (_) { await session.reject() }`): the wrapper rethrows it", async () => {
    const failing = { sessions: { t1: { db: {}, resolve: () => Promise.reject(new Error('COMMIT failed')), reject: async () => undefined } } }
    // Resolves although the commit failed: the defect the wrapper mends. Fixed upstream, this fails: drop the wrapper.
    await expect(commitTransaction.call(failing as never, 't1')).resolves.toBeUndefined()
    expect(failing.sessions).toEqual({})
  })

  it("Payload's drizzle adapter replaces a refused begin with its own error (beginTransaction): the wrapper answers writes-stopped instead", async () => {
    const refused = new ApiError(503, 'service.unavailable', 'Writes are stopped.')
    const adapterLike = {
      initializing: Promise.resolve(),
      drizzle: { transaction: () => Promise.reject(refused) },
      transactionOptions: {},
      sessions: {},
      payload: { logger: { error: () => undefined } },
    }
    const err = (await beginTransaction.call(adapterLike as never).catch((e: unknown) => e)) as Error
    expect(err).not.toBe(refused)
    expect(err.message).toBe('Error: cannot begin transaction: Writes are stopped.')
  })

  it.runIf(sqlite)("a Payload session holds the client's transaction where the commit wrapper reads it (sessions[id].db.session.tx), opened by the write path", async () => {
    const app = await testApp()
    const id = await app.payload.db.beginTransaction()
    expect(id).toBeTruthy()
    try {
      const tx = clientTransactionOf(app.payload.db.sessions[String(id)])
      // The write path's own: ending it lets the next writer in (src/db/sqlite/writes/queuedClient).
      expect(tx).toBeInstanceOf(QueuedTransaction)
      expect(tx!.closed).toBe(false)
    } finally {
      await app.payload.db.rollbackTransaction(String(id))
    }
  })

  it("@libsql/client's SQLite transaction is built from a libsql connection and an int mode, with the methods the write path's transaction delegates to", () => {
    expect(Sqlite3Transaction.length).toBe(2)
    for (const method of ['execute', 'batch', 'commit', 'rollback', 'close']) expect(typeof (Sqlite3Transaction.prototype as unknown as Record<string, unknown>)[method], method).toBe('function')
    expect(Object.getOwnPropertyDescriptor(Sqlite3Transaction.prototype, 'closed')?.get).toBeTypeOf('function')
  })

  it("@libsql/client's own transaction() hands its connection away and opens one without busy_timeout: the write path replaces it (client.transaction)", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'libsql-contract-')), 'c.db')
    const client = createClient({ url: `file:${file}` })
    try {
      await client.execute('PRAGMA busy_timeout = 5000')
      expect((await client.execute('PRAGMA busy_timeout')).rows[0]).toMatchObject({ timeout: 5000 })
      const tx = await client.transaction('write')
      // The client's next statement runs on a fresh connection: the timeout set above is gone. Fixed
      // upstream, this fails: drop the replacement of client.transaction (src/db/sqlite/writes/payloadWrites.ts).
      expect((await client.execute('PRAGMA busy_timeout')).rows[0]).toMatchObject({ timeout: 0 })
      await tx.rollback()
    } finally {
      client.close()
    }
  })

  it.runIf(sqlite)("Payload's adapter keeps the client it was given (db-sqlite's connect: `if (!this.client)`), set up as every writing connection", async () => {
    const app = await testApp()
    const adapterClient = (app.payload.db as unknown as { client: QueuedClient }).client
    // Were the next version to make its own client regardless, this fails: the saves would no
    // longer queue (and the adapter's `wal`/`busyTimeout` options would be needed again).
    expect(adapterClient).toBeInstanceOf(QueuedClient)
    expect((await adapterClient.execute('PRAGMA busy_timeout')).rows[0]).toMatchObject({ timeout: 5000 })
    expect((await adapterClient.execute('PRAGMA journal_mode')).rows[0]).toMatchObject({ journal_mode: 'wal' })
  })
})
