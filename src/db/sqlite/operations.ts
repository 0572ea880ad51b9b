/** Running the embedded SQLite engine: Payload's adapter (atomic, queued saves), the schema, health, shutdown. */
import type { Client } from '@libsql/client'
import { sqliteAdapter } from '@payloadcms/db-sqlite'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { DatabaseAdapterObj } from 'payload'

import { getConfig } from '../../platform/config'
import { newHexId } from '../ids'
import type { OperationsPort } from '../ports/operations'
import { closeConnection, sqliteFileOf, statement } from './connection'
import { migrateSqlite } from './migrations'
import { SERVING_WAL_PRAGMAS } from './walPragmas'
import { BUSY_TIMEOUT_MS, clientTransactionOf, closeWriteConnection, commitFailureOf, queuePayloadTransactions, stopCheckpoints, writesStopped } from './writes'

function sqliteFile(uri: string): string {
  const file = sqliteFileOf(uri)
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  return file
}

/** The configured database file. */
export const configuredFile = () => sqliteFileOf(getConfig().database.uri)

/** From the project root (npm scripts, tests and the server run there). */
const SQLITE_MIGRATION_DIR = path.resolve(process.cwd(), 'src/db/migrations/sqlite')

/**
 * Payload's adapter with transactions on: every save (its row and its relationship rows) is one
 * IMMEDIATE transaction, committed whole or rolled back, opened through ./payloadWrites (this
 * process's write gate, one long-lived write connection with busy_timeout).
 */
function payloadAdapter(uri: string): DatabaseAdapterObj {
  const file = sqliteFile(uri)
  const adapter = sqliteAdapter({
    client: { url: `file:${file}` },
    // WAL lets readers run beside the writer; busy_timeout queues writers instead of failing.
    wal: true,
    busyTimeout: BUSY_TIMEOUT_MS,
    // Migrations own the schema in every environment (prepare runs them); Payload's dev push
    // would drop the service's raw_ tables, which its schema does not know.
    push: false,
    // Where `payload migrate:create` writes; the running server imports the list statically.
    migrationDir: SQLITE_MIGRATION_DIR,
    // Any value turns Payload's transactions on; the BEGIN is ./payloadWrites' (IMMEDIATE).
    transactionOptions: {},
  })
  return {
    ...adapter,
    init: (args) => {
      const instance = adapter.init(args) as ReturnType<typeof adapter.init> & { client?: Client }
      // Payload's drizzle adapter swallows a failed commit (its session's promise never
      // rejects), so a save whose log could not be synced would be answered as saved.
      const commitTransaction = instance.commitTransaction
      instance.commitTransaction = async function (this: typeof instance, incoming) {
        const id = incoming instanceof Promise ? await incoming : incoming
        const sessions = (this as unknown as { sessions?: Record<string, unknown> }).sessions
        const tx = clientTransactionOf(id == null ? undefined : sessions?.[String(id)])
        await commitTransaction.call(this, id)
        const failure = tx ? commitFailureOf(tx) : writesStopped()
        if (failure) throw failure
      }
      // While writes are stopped, a save is refused with that answer (Payload would replace it
      // with a plain "cannot begin transaction" error, a 500).
      const beginTransaction = instance.beginTransaction
      instance.beginTransaction = async function (this: typeof instance, options) {
        try {
          return await beginTransaction.call(this, options)
        } catch (err) {
          throw writesStopped() ?? err
        }
      }
      const connect = instance.connect
      if (connect) {
        instance.connect = async function (this: typeof instance, options) {
          await connect.call(this, options)
          if (instance.client) {
            for (const pragma of SERVING_WAL_PRAGMAS) await instance.client.execute(pragma)
            queuePayloadTransactions(instance.client, file)
          }
        }
      }
      return instance
    },
  }
}

export const sqliteOperations: OperationsPort = {
  name: 'sqlite',
  adapter: (db) => payloadAdapter(db.uri),
  withIds: (collections) =>
    collections.map((c) => ({
      ...c,
      fields: [{ name: 'id', type: 'text', admin: { hidden: true }, defaultValue: () => newHexId() }, ...c.fields],
    })),
  async ping() {
    // A database that can no longer make writes durable is not alive for a supervisor (./writeGate).
    if (writesStopped()) return false
    try {
      statement(configuredFile(), 'SELECT 1').get([])
      return true
    } catch {
      return false
    }
  },
  // Not under the write gate: each migration is a Payload transaction, which takes it itself.
  prepare: (payload, afterMigrate) => migrateSqlite(payload, configuredFile(), afterMigrate),
  // The background checkpoint first: the connection's last fold (TRUNCATE) needs the log to itself.
  closeOwnConnections: async () => {
    await stopCheckpoints()
    closeWriteConnection()
    closeConnection()
  },
}
