/** Running the embedded SQLite engine: Payload's adapter (atomic, queued saves), the schema, health, shutdown. */
import { sqliteAdapter } from '@payloadcms/db-sqlite'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { DatabaseAdapterObj } from 'payload'

import { newHexId } from '../ids'
import type { OperationsPort } from '../ports'
import { closeConnection, sqliteFileOf, statement } from './connection'
import { migrateSqlite } from './migrate'
import { writesOf, writesTo } from './writes'

function sqliteFile(uri: string): string {
  const file = sqliteFileOf(uri)
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  return file
}

/** From the project root (npm scripts, tests and the server run there). */
const SQLITE_MIGRATION_DIR = path.resolve(process.cwd(), 'src/db/sqlite/migrations')

/**
 * Payload's adapter with transactions on: every save (its row and its relationship rows) is one
 * IMMEDIATE transaction, committed whole or rolled back, opened through the file's write path
 * (./writes: this process's write gate, one long-lived write connection with busy_timeout).
 */
function payloadAdapter(uri: string): DatabaseAdapterObj {
  const file = sqliteFile(uri)
  return writesTo(file).payloadAdapter(
    sqliteAdapter({
      client: { url: `file:${file}` },
      // No `wal` or `busyTimeout`: the adapter applies them only to a client it makes itself, and the
      // write path gives it one (./writes/queuedClient), set up as every writing connection is
      // (WAL, busy timeout, synchronous NORMAL, no checkpoint inside a commit: ./connection).
      // Migrations own the schema in every environment (prepare runs them); Payload's dev push
      // would drop the service's raw_ tables, which its schema does not know.
      push: false,
      // Where `payload migrate:create` writes; the running server imports the list statically.
      migrationDir: SQLITE_MIGRATION_DIR,
      // Any value turns Payload's transactions on; the BEGIN is the write path's (IMMEDIATE).
      transactionOptions: {},
    }),
  )
}

export const sqliteOperations: OperationsPort = {
  name: 'sqlite',
  adapter: (db) => payloadAdapter(db.uri),
  withIds: (collections) =>
    collections.map((c) => ({
      ...c,
      fields: [{ name: 'id', type: 'text', admin: { hidden: true }, defaultValue: () => newHexId() }, ...c.fields],
    })),
  async ping(payload) {
    // A database that can no longer make writes durable is not alive for a supervisor (./writes).
    const writes = writesOf(payload)
    if (writes.stopped) return false
    try {
      statement(writes.file, 'SELECT 1').get([])
      return true
    } catch {
      return false
    }
  },
  // Not under the write gate: each migration is a Payload transaction, which takes it itself.
  prepare: (payload, afterMigrate) => migrateSqlite(payload, writesOf(payload).file, afterMigrate),
  // The background checkpoint first: the connection's last fold (TRUNCATE) needs the log to itself.
  closeOwnConnections: async (payload) => {
    const writes = writesOf(payload)
    await writes.close()
    closeConnection(writes.file)
  },
}
