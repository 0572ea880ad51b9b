/**
 * The MongoDB content store: driver queries on Payload's collections (names from Payload's
 * models) built by contentQueries; totals and whole pages cached per content generation
 * (src/db/freshness/generations, moved by the change stream and by this process's own writes).
 */
import { ObjectId } from 'mongodb'
import type { Payload } from 'payload'

import { countCache, VersionedCache } from '../freshness'
import { perView, VIEW_DOMAIN, viewOf } from '../freshness'
import type { BulkProgress, ContentListQuery, ContentPage, ContentRecord, ContentStore, NewContent, NewTag } from '../contentTypes'
import {
  SUBMISSIONS_SORT,
  submissionsFilter,
  URL_KEY_SORT,
  urlKeyFilter,
  contentFilter,
  contentHint,
  contentProjection,
  contentSort,
  CONTENT_PROJECTION,
  carryRelated,
  relatedPipeline,
  TAG_SORT,
  tagFilter,
  tagUsageFilter,
} from './contentQueries'
import { contentDocOf, tagDocOf, toContentRecord, toTagRecord, type ContentDoc, type TagDoc } from './documents'
import { isHexId, oid, payloadCollection } from './native'
import { inTransaction } from './transaction'
import { nextOrdinals } from './urlKeys'
import { hiddenTagSlugsMongo, resumeTagRenamesMongo, startTagRenameSweep } from './tagRename'
import { generation, generationsOf, rowFreshness, type RowStamp } from '../freshness'
import { bounded, READ_LIMIT_MS } from './readLimit'
import { urlKeyOf } from '../../platform/urlNormalize'
import { cacheCounter } from '../../platform/metrics'

/** A page of tags asks this many usage counts at a time. */
const USAGE_AT_ONCE = 16
const relatedLookups = cacheCounter('related_items')
const relatedCarries = cacheCounter('related_items_carried')
const MAX_RELATED = 2_000
const MAX_CARRIED_ROWS = 200
/** How long an unfiltered list's exact count may stand in for estimate=true across writes. */
export const ESTIMATE_REUSE_MS = 5_000

/** A list by view and status alone: no text, no taxonomy, period, submitter, age or URL filter. */
const isUnfiltered = (q: ContentListQuery): boolean =>
  !q.text && !q.tags && !q.groupIds && !q.channelIds && !q.platformIds && !q.approvedSince && !q.submittedBy && !q.createdBefore && q.urlKey === undefined && !q.values

/** Every read below carries the server-side time limit (./readLimit). */
const limited = { maxTimeMS: READ_LIMIT_MS }

const BULK_CHUNK = 5000

/** A slug's claim (src/services/slugClaims.ts): its unique index refuses a slug another tag, item or surface holds. */
type SlugClaimDoc = { _id: ObjectId; slug: string; entity: 'content' | 'tag'; owner: string }
const claimOf = (doc: { _id: ObjectId; slug: string }, entity: SlugClaimDoc['entity']): SlugClaimDoc => ({ _id: new ObjectId(), slug: doc.slug, entity, owner: doc._id.toHexString() })
export function mongoContentStore(payload: Payload): ContentStore {
  // This store's own caches (one store per Payload instance: src/db/engine.ts).
  /** Totals by filter, per view and its content version, shared by a list's pages (whole pages are the service's: src/services/content). */
  const cachedCount = perView((suffix) => countCache(`list_totals${suffix}`))
  /**
   * A tag's usage count, per public content version: counted on the index (raw_content_tags, its
   * three leading keys), never by reading the holders, so a count after each approval costs
   * index keys, not documents.
   */
  const cachedUsage = new VersionedCache<number>('tag_usage', 5_000)
  /**
   * Related items by item, least recent evicted: read whole once (relatedPipeline: every holder of
   * the item's tags and channel, scored), then carried across content versions by reading only
   * the rows written since (carryRelated), so an approval does not send every process back to
   * every holder. Read whole again when a shown row was written, more rows were written since than
   * a find by ids should carry, or the marks cannot tell (a blind feed: then kept per version).
   */
  const relatedKept = new Map<string, RowStamp & { rows: ContentRecord[]; version: string }>()
  /** Each unfiltered list's last exact count (a handful: one per view and status filter). */
  const estimatedTotals = new Map<string, { total: number; version: string; at: number }>()
  const content = () => payloadCollection<ContentDoc>(payload, 'content')
  const tags = () => payloadCollection<TagDoc>(payload, 'tags')
  const claims = () => payloadCollection<SlugClaimDoc>(payload, 'slug-claims')

  const readPage = async (q: ContentListQuery, version: string): Promise<ContentPage> => {
    const filter = contentFilter(q)
    const hint = contentHint(q)
    const rows =
      q.limit > 0
        ? (
            await bounded(() =>
              content()
                .find(filter, { projection: contentProjection(q), ...limited, ...(hint ? { hint } : {}) })
                .sort(contentSort(q))
                .skip(q.offset)
                .limit(q.limit)
                .toArray(),
            )
          ).map(toContentRecord)
        : []
    // A short page (not past the end) already tells the total.
    if (q.limit > 0 && rows.length < q.limit && (rows.length > 0 || q.offset === 0)) {
      return { rows, total: q.offset + rows.length, estimated: false }
    }
    // estimate=true on an unfiltered list: its last exact count stands for a few seconds across
    // writes (said so: X-Total-Estimated), instead of every index entry counted again per write.
    const countKey = `${viewOf(q)}\u0000${JSON.stringify(filter)}`
    const reusable = q.estimate && isUnfiltered(q) ? estimatedTotals.get(countKey) : undefined
    if (reusable && reusable.version !== version && Date.now() - reusable.at < ESTIMATE_REUSE_MS) {
      return { rows, total: reusable.total, estimated: true }
    }
    // Exact, and cached per content version.
    const total = await cachedCount[viewOf(q)](version, JSON.stringify(filter), () =>
      bounded(() => content().countDocuments(filter, { ...limited, ...(hint ? { hint } : {}) })),
    )
    if (isUnfiltered(q)) estimatedTotals.set(countKey, { total, version, at: Date.now() })
    return { rows, total, estimated: false }
  }

  return {
    // MongoDB ranks with its own text index: nothing to read ahead.
    async primeSearch() {},

    // The replica set, the migrations (the service's indexes, the URL-key backfill) and Payload's
    // indexes came first (mongoOperations.prepare). A tag rename a stopped process left half-way
    // is carried on (./tagRename).
    async prepare() {
      await resumeTagRenamesMongo(payload)
      startTagRenameSweep(payload)
    },

    async listContent(q) {
      return readPage(q, generation(payload, VIEW_DOMAIN[viewOf(q)]))
    },

    async contentBySlug(slug) {
      const d = await bounded(() => content().findOne({ slug }, { projection: CONTENT_PROJECTION, ...limited }))
      return d ? toContentRecord(d) : null
    },

    async contentByUrlKey(urlKey) {
      const docs = await bounded(() => content().find(urlKeyFilter(urlKey), { projection: CONTENT_PROJECTION, ...limited }).sort(URL_KEY_SORT).toArray())
      return docs.map(toContentRecord)
    },

    async listSubmissions(q) {
      const filter = submissionsFilter(q)
      const [docs, total] = await bounded(() =>
        Promise.all([
          q.limit > 0
            ? content().find(filter, { projection: CONTENT_PROJECTION, ...limited }).sort(SUBMISSIONS_SORT).skip(q.offset).limit(q.limit).toArray()
            : Promise.resolve([]),
          content().countDocuments(filter, limited),
        ]),
      )
      return { rows: docs.map(toContentRecord), total, estimated: false }
    },

    async contentById(id) {
      if (!isHexId(id)) return null
      const d = await bounded(() => content().findOne({ _id: oid(id) }, { projection: CONTENT_PROJECTION, ...limited }))
      return d ? toContentRecord(d) : null
    },

    async relatedContent(item, limit) {
      const rows = rowFreshness(payload)
      // Both read before any data: a row written after them is caught at the next ask.
      const version = generation(payload, 'content')
      const clock = rows.clock()
      const key = JSON.stringify([item.id, item.channelId, item.tagSlugs, limit])
      const keep = (found: ContentRecord[]) => {
        if (relatedLookups.off) return found
        relatedKept.delete(key)
        relatedKept.set(key, { rows: found, ids: found.map((r) => r.id), clock, version })
        if (relatedKept.size > MAX_RELATED) relatedKept.delete(relatedKept.keys().next().value!)
        return found
      }
      const kept = relatedLookups.off ? undefined : relatedKept.get(key)
      if (kept) {
        const since = rows.markedSince(kept.clock)
        if (since?.length === 0 || (kept.version === version && rows.fresh(kept))) {
          relatedLookups.hit(version)
          return keep(kept.rows)
        }
        if (since && since.length <= MAX_CARRIED_ROWS) {
          const changed = new Set(since)
          const ids = [...changed].filter(isHexId).map(oid)
          const now = await bounded(() => content().find({ _id: { $in: ids } }, { projection: CONTENT_PROJECTION, ...limited }).toArray())
          const carried = carryRelated(item, kept.rows, changed, now.map(toContentRecord), limit)
          if (carried) {
            relatedCarries.hit(version)
            return keep(carried)
          }
          relatedCarries.miss(version)
        }
      }
      relatedLookups.miss(version)
      const docs = await bounded(() => content().aggregate<ContentDoc>(relatedPipeline(item, limit), limited).toArray())
      return keep(docs.map(toContentRecord))
    },

    async countContent() {
      return content().countDocuments({})
    },

    async listTags(q) {
      const f = tagFilter(q)
      const [docs, total] = await bounded(() =>
        Promise.all([tags().find(f, limited).sort(TAG_SORT).skip(q.offset).limit(q.limit).toArray(), tags().countDocuments(f, limited)]),
      )
      return { rows: docs.map(toTagRecord), total }
    },

    async tagBySlug(slug) {
      const d = await bounded(() => tags().findOne({ slug }, limited))
      return d ? toTagRecord(d) : null
    },

    hiddenTagSlugs: () => hiddenTagSlugsMongo(payload),

    async tagUsage(slugs) {
      const version = generation(payload, 'content')
      const out = new Map<string, number>()
      for (let i = 0; i < slugs.length; i += USAGE_AT_ONCE) {
        const batch = slugs.slice(i, i + USAGE_AT_ONCE)
        const counts = await Promise.all(
          batch.map((slug) => cachedUsage.get(version, slug, () => bounded(() => content().countDocuments(tagUsageFilter(slug), limited)))),
        )
        batch.forEach((slug, j) => out.set(slug, counts[j]!))
      }
      return out
    },

    async insertContent(rows: NewContent[]) {
      // Copies of a URL already present (or earlier in the rows) are numbered after it.
      const keys = rows.map((r) => urlKeyOf(r.url))
      const next = await nextOrdinals(content(), [...new Set(keys)])
      const docs = rows.map((r, i) => {
        const key = keys[i]!
        const ordinal = next.get(key) ?? 0
        next.set(key, ordinal + 1)
        return contentDocOf(r, () => new ObjectId(), oid, { key, ordinal })
      })
      for (let i = 0; i < docs.length; i += BULK_CHUNK) {
        const chunk = docs.slice(i, i + BULK_CHUNK)
        await inTransaction(payload, async ({ session }) => {
          await content().insertMany(chunk, { session })
          // Each item claims its slug (global across tags, content and surfaces) in the same transaction.
          await claims().insertMany(chunk.map((d) => claimOf(d, 'content')), { session })
        })
        generationsOf(payload.db).changed(['content'])
      }
    },

    async bulkLoadContent(batches: Iterable<NewContent[]>, progress?: BulkProgress) {
      let done = 0
      for (const batch of batches) {
        await this.insertContent(batch)
        done += batch.length
        progress?.rows(done)
      }
      return done
    },

    async insertTags(rows: NewTag[]) {
      if (rows.length === 0) return
      const docs = rows.map((r) => tagDocOf(r, () => new ObjectId(), oid))
      await inTransaction(payload, async ({ session }) => {
        await tags().insertMany(docs, { session })
        await claims().insertMany(docs.map((d) => claimOf(d, 'tag')), { session })
      })
      generationsOf(payload.db).changed(['taxonomy'])
    },
  }
}
