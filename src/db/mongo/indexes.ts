/**
 * Every index the service needs beside Payload's own, created and awaited by a migration
 * (src/db/mongo/migrations): a failure stops the start, naming the index. An index of ours
 * whose definition changed (IndexOptionsConflict 85 / IndexKeySpecsConflict 86, or a second
 * text index) is replaced, with a log line: a new key pattern built beside the old one first
 * (ensureIndex). A changed definition here needs a
 * new migration that builds it (ensureIndex), as a database that ran the first one does not
 * run it again. Payload's model indexes (unique slugs, emails, ...) follow its collections:
 * start-up builds and awaits them after the migrations, under the same lock (mongoose's
 * autoIndex, which would build them at connect in every process, is off: ./operations).
 */
import { createHash } from 'node:crypto'

import type { Db, Document, IndexDescription } from 'mongodb'
import type { Payload } from 'payload'

import { TEXT_WEIGHTS } from '../searchTerms'
import { logger } from '../../platform/logging'
import { LIST_INDEX_KEYS } from './contentQueries'
import { serverCode } from './driverErrors'
import { collectionName } from './native'

export const INDEX_OPTIONS_CONFLICT = 85
export const INDEX_KEY_SPECS_CONFLICT = 86

export type IndexPlan = { collection: string; index: IndexDescription & { name: string } }

/** The rate-limit counters' collection (rate-limiter-flexible, its index creation turned off). */
export const RATE_LIMIT_COLLECTION = 'raw_rate_limits'

export function serviceIndexes(content: string): IndexPlan[] {
  const on = (collection: string, list: (IndexDescription & { name: string })[]) => list.map((index) => ({ collection, index }))
  return [
    ...on(content, [
      {
        key: { title: 'text', description: 'text' },
        name: 'raw_content_text',
        // The weights and the language's stop words are the ones SQLite applies (../searchTerms).
        weights: { ...TEXT_WEIGHTS },
        default_language: 'english',
      },
      // Every list's sort from an index (test/db/mongoQueries.test.ts reads each query shape
      // against this list): (status, isActive) lead, each under a point condition (./contentQueries);
      // the title last, so a short-term search tests it on the keys it walks in order.
      { key: { ...LIST_INDEX_KEYS.raw_content_list }, name: 'raw_content_list' },
      { key: { ...LIST_INDEX_KEYS.raw_content_alpha }, name: 'raw_content_alpha' },
      { key: { ...LIST_INDEX_KEYS.raw_content_submitted }, name: 'raw_content_submitted' },
      { key: { tagSlugs: 1, status: 1, isActive: 1, approvedAt: -1, _id: -1 }, name: 'raw_content_tags' },
      { key: { group: 1, approvedAt: -1, _id: -1 }, name: 'raw_content_group_list' },
      { key: { channel: 1, approvedAt: -1, _id: -1 }, name: 'raw_content_channel_list' },
      { key: { platform: 1, approvedAt: -1, _id: -1 }, name: 'raw_content_platform_list' },
      // Payload's admin list (defaultSort -approvedAt; filtered by status or not). The adapter adds
      // its fallback sort, -createdAt (timestamps on), so it sends {approvedAt: -1, createdAt: -1}:
      // test/db/mongoWirePayload.test.ts reads the sort the adapter sends and finds it here.
      { key: { status: 1, approvedAt: -1, createdAt: -1, _id: -1 }, name: 'raw_content_status_approved_at' },
      { key: { approvedAt: -1, createdAt: -1, _id: -1 }, name: 'raw_content_approved_at' },
      // GET /auth/me/submissions: one submitter's items, newest first.
      { key: { submittedBy: 1, createdAt: -1, _id: -1 }, name: 'raw_content_by_submitter' },
      // Duplicate URLs: one new item per key (ordinal 0), whoever races whom; legacy copies
      // carry ordinals 1, 2, ... (backfill). Built after the backfill; rows still without
      // a key (none once backfilled) stay out of it.
      {
        key: { urlKey: 1, urlKeyOrdinal: 1 },
        name: 'raw_content_url_key',
        unique: true,
        partialFilterExpression: { urlKey: { $type: 'string' } },
      },
    ]),
    ...on(RATE_LIMIT_COLLECTION, [
      // What rate-limiter-flexible would build in the background (RateLimiterMongo.createIndexes).
      { key: { expire: -1 }, name: 'raw_rate_limits_expire', expireAfterSeconds: 0 },
      { key: { key: 1 }, name: 'raw_rate_limits_key', unique: true },
    ]),
  ]
}

export class IndexBuildFailed extends Error {
  constructor(collection: string, index: string, cause: unknown) {
    super(`Could not build the MongoDB index ${collection}.${index}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'IndexBuildFailed'
  }
}

/** Older servers refuse a second text index (another name) with CannotCreateIndex. */
export const CANNOT_CREATE_INDEX = 67

const isText = (index: IndexDescription) => Object.values(index.key).includes('text')

/** A changed definition of an index this service owns, which it may drop and rebuild. */
function isDefinitionConflict(err: unknown, index: IndexDescription): boolean {
  const code = serverCode(err)
  return code === INDEX_OPTIONS_CONFLICT || code === INDEX_KEY_SPECS_CONFLICT || (code === CANNOT_CREATE_INDEX && isText(index))
}

/** The server's default name for a key pattern (`a_1_b_-1`): what Payload's (mongoose's) indexes are called. */
const defaultName = (key: Document) => Object.entries(key).map(([field, dir]) => `${field}_${String(dir)}`).join('_')

const sameKeys = (a: Document, b: Document) => JSON.stringify(a) === JSON.stringify(b)

/**
 * An existing index that an older build of this service made for `index`: the same name; or
 * the same key pattern under another explicit name (ours are always named; a default name
 * is Payload's, never dropped here); or, for a text index, any text index (one per collection).
 */
function isOurOlderVersion(old: Document, index: IndexDescription & { name: string }): boolean {
  if (old.name === index.name || String(old.name).startsWith(`${index.name}${BESIDE}`)) return true
  if (typeof old.key !== 'object' || old.key === null || old.name === '_id_') return false
  if (isText(index) && '_fts' in old.key) return true
  return sameKeys(old.key, index.key) && old.name !== defaultName(old.key)
}

const sorted = (d: unknown) => JSON.stringify(Object.entries((d ?? {}) as Document).sort(([a], [b]) => a.localeCompare(b)))

/**
 * An existing index that already is `index` under another name: the same key pattern (a text
 * index: the same fields, weights and language) and the same options. Kept as it is: rebuilding
 * it only to rename it would take minutes at a million documents, and the lists hint by key
 * pattern, not by name (./contentQueries).
 */
function sameDefinition(old: Document, index: IndexDescription): boolean {
  if (typeof old.key !== 'object' || old.key === null) return false
  if (isText(index)) {
    if (!('_fts' in old.key)) return false
    const fields = Object.fromEntries(Object.keys(index.key).map((f) => [f, 1]))
    return sorted(old.weights) === sorted(index.weights ?? fields) && (old.default_language ?? 'english') === (index.default_language ?? 'english')
  }
  return (
    sameKeys(old.key, index.key) &&
    Boolean(old.unique) === Boolean(index.unique) &&
    Boolean(old.sparse) === Boolean(index.sparse) &&
    old.expireAfterSeconds === index.expireAfterSeconds &&
    JSON.stringify(old.partialFilterExpression) === JSON.stringify(index.partialFilterExpression)
  )
}

/** What a definition built beside its older version is named after: `<name>__<its definition's hash>`. */
const BESIDE = '__'
const besideName = (index: IndexDescription & { name: string }) =>
  `${index.name}${BESIDE}${createHash('sha256').update(JSON.stringify({ ...index, name: undefined })).digest('hex').slice(0, 8)}`

/**
 * One index; a changed definition under the same name (or same keys) is migrated; the same
 * definition under another name is kept. A new key pattern is built beside the old index, under
 * its own name, and the old one dropped only then: a list keeps an index to sort by while the new
 * one builds (minutes at a million documents), and the lists hint by key pattern, not by name. The
 * same key pattern with other options cannot stand beside the old one (the server refuses a
 * second index of one key pattern): the old is dropped first, as is a text index (one per collection).
 */
export async function ensureIndex(db: Db, { collection, index }: IndexPlan): Promise<void> {
  const coll = db.collection(collection)
  try {
    await coll.createIndexes([index])
  } catch (err) {
    if (!isDefinitionConflict(err, index)) throw new IndexBuildFailed(collection, index.name, err)
    try {
      // The existing index with this name, or (text indexes: one per collection) any text index.
      const existing = await coll.listIndexes().toArray()
      const same = existing.find((old) => old.name !== index.name && sameDefinition(old, index))
      if (same) {
        logger().info({ collection, kept: same.name, wanted: index.name }, 'mongo.index_kept')
        return
      }
      const older = existing.filter((old) => isOurOlderVersion(old, index))
      const beside = !isText(index) && older.every((old) => typeof old.key === 'object' && old.key !== null && !sameKeys(old.key, index.key))
      const built = beside ? { ...index, name: besideName(index) } : index
      if (beside) await coll.createIndexes([built])
      for (const old of older) {
        if (beside && old.name === built.name) continue
        await coll.dropIndex(String(old.name))
        logger().warn({ collection, dropped: old.name, replacement: built.name }, 'mongo.index_replaced')
      }
      if (!beside) await coll.createIndexes([index])
    } catch (retryErr) {
      throw new IndexBuildFailed(collection, index.name, retryErr)
    }
  }
}

export async function ensureServiceIndexes(payload: Payload, db: Db): Promise<void> {
  for (const plan of serviceIndexes(collectionName(payload, 'content'))) await ensureIndex(db, plan)
}

/** Payload's schema indexes (unique slugs, ...), awaited; a failure names the collection. */
export async function ensurePayloadIndexes(payload: Payload): Promise<void> {
  const models = [...Object.entries(payload.db.collections ?? {}), ...Object.entries(payload.db.versions ?? {})]
  for (const [slug, model] of models) {
    try {
      await model.init()
      await model.ensureIndexes()
    } catch (err) {
      throw new IndexBuildFailed(model.collection.collectionName || slug, 'Payload schema indexes', err)
    }
  }
}
