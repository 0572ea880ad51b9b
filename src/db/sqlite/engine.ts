/** The embedded SQLite engine behind EngineOps: every raw access on the service's one connection (./connection). */
import type { Client } from '@libsql/client'
import { sqliteAdapter } from '@payloadcms/db-sqlite'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { DatabaseAdapterObj } from 'payload'

import { getConfig } from '../../config'
import type { ContentStore } from '../contentTypes'
import type { EngineOps } from '../engineOps'
import { newHexId } from '../ids'
import { claimRefreshTokenSqlite, hitRateLimitSqlite } from './authPrimitives'
import { closeConnection, sqliteFileOf, statement } from './connection'
import { sqliteContentStore } from './contentStore'
import { claimFollowUpSqlite, completeFollowUpSqlite, failFollowUpSqlite, followUpDepthSqlite, listFollowUpsSqlite } from './followUpOutbox'
import { migrateSqlite } from './migrations'
import { transitionStatusSqlite } from './moderation'
import { recordedUpdateSqlite } from './moderationEvents'
import { renameTagSqlite } from './tagRename'
import { reorderTaxonomySqlite } from './taxonomyReorder'
import { BUSY_TIMEOUT_MS, queuePayloadTransactions } from './payloadWrites'
import { sqliteVersionOf } from './versions'
import { underWriteGate } from './writeGate'

function sqliteFile(uri: string): string {
  const file = sqliteFileOf(uri)
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  return file
}

const file = () => sqliteFileOf(getConfig().database.uri)

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

/** The store's writes (start-up backfill, seed inserts, bulk loads) queue like every other writer. */
function gatedStore(s: ContentStore): ContentStore {
  return {
    ...s,
    prepare: () => underWriteGate(() => s.prepare()),
    insertContent: (rows) => underWriteGate(() => s.insertContent(rows)),
    bulkLoadContent: (batches, progress) => underWriteGate(() => s.bulkLoadContent(batches, progress)),
    insertTags: (rows) => underWriteGate(() => s.insertTags(rows)),
  }
}

let store: { file: string; store: ContentStore } | undefined

export const sqliteEngine: EngineOps = {
  name: 'sqlite',
  adapter: (db) => payloadAdapter(db.uri),
  withIds: (collections) =>
    collections.map((c) => ({
      ...c,
      fields: [{ name: 'id', type: 'text', admin: { hidden: true }, defaultValue: () => newHexId() }, ...c.fields],
    })),
  async ping() {
    try {
      statement(file(), 'SELECT 1').get([])
      return true
    } catch {
      return false
    }
  },
  // Not under the write gate: each migration is a Payload transaction, which takes it itself.
  prepare: (payload, afterMigrate) => migrateSqlite(payload, file(), afterMigrate),
  contentStore: () => {
    const f = file()
    if (store?.file !== f) store = { file: f, store: gatedStore(sqliteContentStore(f)) }
    return store.store
  },
  claimRefreshToken: (_payload, tokenHash, reason, now, successor) => underWriteGate(() => claimRefreshTokenSqlite(file(), tokenHash, reason, now, successor)),
  hitRateLimit: (_payload, key, points, durationSeconds) => underWriteGate(() => hitRateLimitSqlite(file(), key, points, durationSeconds)),
  renameTag: (_payload, input) => underWriteGate(() => renameTagSqlite(file(), input)),
  reorderTaxonomy: (_payload, input) => underWriteGate(() => reorderTaxonomySqlite(file(), input)),
  transitionStatus: (_payload, t) => underWriteGate(() => transitionStatusSqlite(file(), t)),
  recordedUpdate: (_payload, u) => underWriteGate(() => recordedUpdateSqlite(file(), u)),
  claimFollowUp: (_payload, claim) => underWriteGate(() => claimFollowUpSqlite(file(), claim)),
  completeFollowUp: (_payload, id, worker, at) => underWriteGate(() => completeFollowUpSqlite(file(), id, worker, at)),
  failFollowUp: (_payload, failure) => underWriteGate(() => failFollowUpSqlite(file(), failure)),
  listFollowUps: async (_payload, contentId) => listFollowUpsSqlite(file(), contentId),
  followUpDepth: async (_payload, now) => followUpDepthSqlite(file(), now),
  closeOwnConnections: closeConnection,
  versionOf: async (_payload, domain) => sqliteVersionOf(file(), domain),
  // Triggers move the counters in the writing transaction.
  onDomainWrite: async () => undefined,
  // SQLite queues writers (busy_timeout) instead of failing them.
  withTransientRetry: (fn) => fn(),
}
