/** Running the embedded SQLite engine: Payload's adapter (atomic, queued saves), the schema, health, shutdown. */
import type { Client } from '@libsql/client'
import { sqliteAdapter } from '@payloadcms/db-sqlite'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { DatabaseAdapterObj } from 'payload'

import { getConfig } from '../../config'
import { newHexId } from '../ids'
import type { OperationsPort } from '../ports/operations'
import { closeConnection, sqliteFileOf, statement } from './connection'
import { BUSY_TIMEOUT_MS, queuePayloadTransactions } from './payloadWrites'
import { syncSqliteSchema } from './schemaSync'
import { underWriteGate } from './writeGate'

function sqliteFile(uri: string): string {
  const file = sqliteFileOf(uri)
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  return file
}

/** The configured database file. */
export const configuredFile = () => sqliteFileOf(getConfig().database.uri)

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
    // The service syncs the schema itself (prepare), in production too.
    push: false,
    // Any value turns Payload's transactions on; the BEGIN is ./payloadWrites' (IMMEDIATE).
    transactionOptions: {},
  })
  return {
    ...adapter,
    init: (args) => {
      const instance = adapter.init(args) as ReturnType<typeof adapter.init> & { client?: Client }
      const connect = instance.connect
      if (connect) {
        instance.connect = async function (this: typeof instance, options) {
          await connect.call(this, options)
          if (instance.client) queuePayloadTransactions(instance.client, file)
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
    try {
      statement(configuredFile(), 'SELECT 1').get([])
      return true
    } catch {
      return false
    }
  },
  prepare: async (payload) => void (await underWriteGate(() => syncSqliteSchema(payload, configuredFile()))),
  closeOwnConnections: closeConnection,
}
