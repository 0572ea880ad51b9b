/**
 * The MongoDB content store: driver queries on Payload's collections (names from Payload's
 * models) built by contentQueries; totals and whole pages cached per content version (the
 * change counter in raw_versions). Bulk inserts move the counter in the same transaction.
 */
import { ObjectId } from 'mongodb'
import type { Payload } from 'payload'

import { cachedCount, VersionedCache } from '../versionedCache'
import type { ContentListQuery, ContentPage, ContentStore, NewContent, NewTag } from '../contentTypes'
import {
  contentFilter,
  contentHint,
  contentProjection,
  contentSort,
  CONTENT_PROJECTION,
  relatedPipeline,
  TAG_SORT,
  tagFilter,
  tagUsagePipeline,
} from './contentQueries'
import { contentDocOf, tagDocOf, toContentRecord, toTagRecord, type ContentDoc, type TagDoc } from './documents'
import { ensureServiceIndexes } from './indexes'
import { nativeDb, oid, payloadCollection } from './native'
import { inTransaction } from './transaction'
import { DOMAINS } from '../versionDomains'
import { bumpVersion, readVersion, seedVersions } from './versions'

/** Whole pages (rows and total) by query, per content version. */
const pages = new VersionedCache<ContentPage>(2_000, 20_000, (p) => p.rows.length + 1)

const BULK_CHUNK = 5000

export function mongoContentStore(payload: Payload): ContentStore {
  const content = () => payloadCollection<ContentDoc>(payload, 'content')
  const tags = () => payloadCollection<TagDoc>(payload, 'tags')

  const readPage = async (q: ContentListQuery, version: string): Promise<ContentPage> => {
    const filter = contentFilter(q)
    const hint = contentHint(q)
    const rows =
      q.limit > 0
        ? (
            await content()
              .find(filter, { projection: contentProjection(q), ...(hint ? { hint } : {}) })
              .sort(contentSort(q))
              .skip(q.offset)
              .limit(q.limit)
              .toArray()
          ).map(toContentRecord)
        : []
    // A short page (not past the end) already tells the total.
    if (q.limit > 0 && rows.length < q.limit && (rows.length > 0 || q.offset === 0)) {
      return { rows, total: q.offset + rows.length, estimated: false }
    }
    // Exact, and cached per content version: estimate=true needs no approximate shortcut.
    const total = await cachedCount(version, JSON.stringify(filter), () =>
      content().countDocuments(filter, hint ? { hint } : {}),
    )
    return { rows, total, estimated: false }
  }

  return {
    async prepare() {
      // The replica set and Payload's own indexes were checked first (mongoEngine.prepare).
      const db = nativeDb(payload)
      await ensureServiceIndexes(payload, db)
      await seedVersions(db, DOMAINS)
    },

    async listContent(q) {
      const version = await readVersion(nativeDb(payload), 'content')
      return pages.get(version, JSON.stringify(q), () => readPage(q, version))
    },

    async contentBySlug(slug) {
      const d = await content().findOne({ slug }, { projection: CONTENT_PROJECTION })
      return d ? toContentRecord(d) : null
    },

    async relatedContent(item, limit) {
      const docs = await content().aggregate<ContentDoc>(relatedPipeline(item, limit)).toArray()
      return docs.map(toContentRecord)
    },

    async countContent() {
      return content().countDocuments({})
    },

    async listTags(q) {
      const f = tagFilter(q)
      const [docs, total] = await Promise.all([
        tags().find(f).sort(TAG_SORT).skip(q.offset).limit(q.limit).toArray(),
        tags().countDocuments(f),
      ])
      return { rows: docs.map(toTagRecord), total }
    },

    async tagBySlug(slug) {
      const d = await tags().findOne({ slug })
      return d ? toTagRecord(d) : null
    },

    async tagUsage(slugs) {
      const out = new Map<string, number>(slugs.map((s) => [s, 0]))
      if (slugs.length === 0) return out
      const rows = await content().aggregate<{ _id: string; n: number }>(tagUsagePipeline(slugs)).toArray()
      for (const r of rows) out.set(r._id, r.n)
      return out
    },

    async insertContent(rows: NewContent[]) {
      const docs = rows.map((r) => contentDocOf(r, () => new ObjectId(), oid))
      for (let i = 0; i < docs.length; i += BULK_CHUNK) {
        const chunk = docs.slice(i, i + BULK_CHUNK)
        await inTransaction(payload, async ({ session, db }) => {
          await content().insertMany(chunk, { session })
          await bumpVersion(db, 'content', session)
        })
      }
    },

    async insertTags(rows: NewTag[]) {
      if (rows.length === 0) return
      const docs = rows.map((r) => tagDocOf(r, () => new ObjectId(), oid))
      await inTransaction(payload, async ({ session, db }) => {
        await tags().insertMany(docs, { session })
        await bumpVersion(db, 'taxonomy', session)
      })
    },
  }
}
