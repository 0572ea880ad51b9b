/** The embedded SQLite engine behind EngineOps: every raw access on the service's one connection (./connection). */
import { sqliteAdapter } from '@payloadcms/db-sqlite'
import { mkdirSync } from 'node:fs'
import path from 'node:path'

import { getConfig } from '../../config'
import type { EngineOps } from '../engineOps'
import { newHexId } from '../ids'
import { claimRefreshTokenSqlite, hitRateLimitSqlite } from './authPrimitives'
import { closeConnection, sqliteFileOf, statement } from './connection'
import { sqliteContentStore } from './contentStore'
import { claimFollowUpSqlite, completeFollowUpSqlite, failFollowUpSqlite, followUpDepthSqlite, listFollowUpsSqlite } from './followUpOutbox'
import { transitionStatusSqlite } from './moderation'
import { syncSqliteSchema } from './schemaSync'
import { recordedUpdateSqlite } from './moderationEvents'
import { renameTagSqlite } from './tagRename'
import { reorderTaxonomySqlite } from './taxonomyReorder'
import { sqliteVersionOf } from './versions'

function sqliteFile(uri: string): string {
  const file = sqliteFileOf(uri)
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  return file
}

const file = () => sqliteFileOf(getConfig().database.uri)

export const sqliteEngine: EngineOps = {
  name: 'sqlite',
  adapter: (db) =>
    sqliteAdapter({
      client: { url: `file:${sqliteFile(db.uri)}` },
      // WAL lets readers run beside the writer; busy_timeout queues writers instead of failing.
      wal: true,
      busyTimeout: 5000,
      // The service syncs the schema itself (prepare), in production too.
      push: false,
    }),
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
  prepare: async (payload) => void (await syncSqliteSchema(payload, file())),
  contentStore: () => sqliteContentStore(file()),
  claimRefreshToken: async (_payload, tokenHash, reason, now, successor) => claimRefreshTokenSqlite(file(), tokenHash, reason, now, successor),
  hitRateLimit: async (_payload, key, points, durationSeconds) => hitRateLimitSqlite(file(), key, points, durationSeconds),
  renameTag: async (_payload, input) => renameTagSqlite(file(), input),
  reorderTaxonomy: async (_payload, input) => reorderTaxonomySqlite(file(), input),
  transitionStatus: async (_payload, t) => transitionStatusSqlite(file(), t),
  recordedUpdate: async (_payload, u) => recordedUpdateSqlite(file(), u),
  claimFollowUp: async (_payload, claim) => claimFollowUpSqlite(file(), claim),
  completeFollowUp: async (_payload, id, worker, at) => completeFollowUpSqlite(file(), id, worker, at),
  failFollowUp: async (_payload, failure) => failFollowUpSqlite(file(), failure),
  listFollowUps: async (_payload, contentId) => listFollowUpsSqlite(file(), contentId),
  followUpDepth: async (_payload, now) => followUpDepthSqlite(file(), now),
  closeOwnConnections: closeConnection,
  versionOf: async (_payload, domain) => sqliteVersionOf(file(), domain),
  // Triggers move the counters in the writing transaction.
  onDomainWrite: async () => undefined,
  // SQLite queues writers (busy_timeout) instead of failing them.
  withTransientRetry: (fn) => fn(),
}
