/**
 * Everything that differs between the two database engines lives here, behind one interface:
 * the Payload adapter, 24-hex ids, liveness, schema sync, the content store (lists, search,
 * counts), refresh-token claims, rate-limit counters, tag renames and moderation moves.
 * Nothing else in the code base may branch on the engine.
 */
import { mongooseAdapter } from '@payloadcms/db-mongodb'
import { sqliteAdapter } from '@payloadcms/db-sqlite'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { CollectionConfig, DatabaseAdapterObj, Payload } from 'payload'

import type { AppConfig } from '../config'
import { newHexId } from './ids'
import { syncSqliteSchema } from './sqliteSchema'

export type Engine = 'sqlite' | 'mongodb'


function sqliteFile(uri: string): string {
  const file = uri.replace(/^file:/, '')
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  return file
}

export function databaseAdapter(db: AppConfig['database']): DatabaseAdapterObj {
  if (db.engine === 'mongodb') {
    return mongooseAdapter({ url: db.uri, ...(db.name ? { connectOptions: { dbName: db.name } } : {}) })
  }
  return sqliteAdapter({
    client: { url: `file:${sqliteFile(db.uri)}` },
    // WAL lets readers run beside the writer; busy_timeout queues writers instead of failing.
    wal: true,
    busyTimeout: 5000,
    // The service syncs the schema itself (prepareDatabase), in production too.
    push: false,
  })
}

/**
 * On SQLite, collections get a text `id` that defaults to a fresh 24-hex value, so that ids
 * look the same on both engines. MongoDB's ObjectIds already are.
 */
export function withEngineIds(engine: Engine, collections: CollectionConfig[]): CollectionConfig[] {
  if (engine === 'mongodb') return collections
  return collections.map((c) => ({
    ...c,
    fields: [
      { name: 'id', type: 'text', admin: { hidden: true }, defaultValue: () => newHexId() },
      ...c.fields,
    ],
  }))
}

/** True once the database answers a trivial query. */
export async function ping(payload: Payload): Promise<boolean> {
  try {
    const db = payload.db as unknown as {
      name?: string
      client?: { execute(sql: string): Promise<unknown> }
      connection?: { db?: { admin(): { ping(): Promise<unknown> } } }
    }
    if (db.connection?.db) await db.connection.db.admin().ping()
    else if (db.client) await db.client.execute('SELECT 1')
    else return false
    return true
  } catch {
    return false
  }
}

/** Brings the database schema up to date before anything else runs. */
export async function prepareDatabase(payload: Payload, engine: Engine): Promise<void> {
  if (engine === 'sqlite') await syncSqliteSchema(payload)
}

// The content and taxonomy fast paths (one interface over both engines).
export { contentStoreFor } from './contentStore'
export { invalidateCounts } from './countCache'
export type * from './contentTypes'

// ---- Identity primitives (refresh-token claim, rate-limit counters) ----
import { getConfig } from '../config'
import type { ClaimResult, RateLimitHit } from './authTypes'
import { claimRefreshTokenMongo, hitRateLimitMongo } from './mongo/authPrimitives'
import { claimRefreshTokenSqlite, hitRateLimitSqlite } from './sqlite/authPrimitives'

export type { ClaimResult, RateLimitHit } from './authTypes'

/**
 * Atomically revokes an unrevoked refresh token (conditional update on its hash). Of two
 * concurrent callers presenting the same token exactly one gets `claimed: true`.
 */
export function claimRefreshToken(payload: Payload, tokenHash: string, reason: string, now = new Date()): Promise<ClaimResult> {
  return getConfig().database.engine === 'mongodb'
    ? claimRefreshTokenMongo(payload, tokenHash, reason, now)
    : claimRefreshTokenSqlite(payload, tokenHash, reason, now)
}

/** One hit on the database-backed rate-limit counter `key` (fixed window). */
export function hitRateLimit(payload: Payload, key: string, points: number, durationSeconds: number): Promise<RateLimitHit> {
  return getConfig().database.engine === 'mongodb'
    ? hitRateLimitMongo(payload, key, points, durationSeconds)
    : hitRateLimitSqlite(payload, key, points, durationSeconds)
}

// ---- Tag rename: tag, content tagSlugs and audit in one transaction ----
import type { TagRenameInput, TagRenameResult } from './renameTypes'
import { renameTagMongo } from './mongo/tagRename'
import { sqliteFileOf } from './sqlite/connection'
import { renameTagSqlite } from './sqlite/tagRename'

export type { TagRenameInput, TagRenameResult } from './renameTypes'

export async function renameTagAtomically(payload: Payload, input: TagRenameInput): Promise<TagRenameResult> {
  const db = getConfig().database
  return db.engine === 'mongodb' ? renameTagMongo(payload, input) : renameTagSqlite(sqliteFileOf(db.uri), input)
}

// ---- Moderation: a status move that only one of concurrent callers can make ----
import { transitionStatusMongo } from './mongo/moderation'
import type { StatusTransition } from './moderationTypes'
import { transitionStatusSqlite } from './sqlite/moderation'

export type { StatusTransition } from './moderationTypes'

/** True when this call moved the item; false when it was no longer in `from`. */
export async function transitionContentStatus(payload: Payload, t: StatusTransition): Promise<boolean> {
  const db = getConfig().database
  return db.engine === 'mongodb' ? transitionStatusMongo(payload, t) : transitionStatusSqlite(sqliteFileOf(db.uri), t)
}
