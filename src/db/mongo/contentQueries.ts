/**
 * Every filter, sort, pipeline and update document the MongoDB store sends, as pure
 * functions (test/db/mongoQueries.test.ts pins them exactly).
 */
import type { Document, Filter, ObjectId, Sort, UpdateFilter } from 'mongodb'

import { CONTENT_FIELD_NAMES, CONTENT_FIELDS, valueFilters } from '../contentRecord'
import { CONTENT_STATUSES, type ContentListQuery, type ContentRecord, type ContentSort, type SubmissionsQuery, type TagListQuery } from '../contentTypes'
import { indexedTerms } from '../searchTerms'
import type { ContentDoc, TagDoc } from './documents'
import { isHexId, oid, oids } from './native'

/** Every field of the record (../contentRecord), by Payload's names. */
export const CONTENT_PROJECTION: Readonly<Record<string, 1>> = Object.fromEntries(
  CONTENT_FIELD_NAMES.filter((name) => name !== 'id').map((name) => [CONTENT_FIELDS[name].mongo, 1]),
)

export const TEXT_SCORE = { $meta: 'textScore' } as const

export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * How q's terms are matched. The service's terms come from the one tokenizer both engines
 * share (../searchTerms): stop words are gone already. Terms that are all stop words (an
 * engine caller that skipped the service) match nothing, as on SQLite.
 */
export function textMode(q: Pick<ContentListQuery, 'text'>): 'none' | 'index' | 'nothing' {
  const terms = q.text?.terms ?? []
  if (terms.length === 0) return 'none'
  return indexedTerms(terms).length > 0 ? 'index' : 'nothing'
}

/**
 * A short term as a title substring with SQLite's LIKE semantics: ASCII letters in either
 * case, every other character exactly (LIKE folds ASCII only; the `i` option would fold more).
 */
export const shortTermPattern = (term: string): string =>
  Array.from(term, (c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegex(c))).join('')

export function contentFilter(q: ContentListQuery): Filter<ContentDoc> {
  const f: Filter<ContentDoc> = {}
  const and: Filter<ContentDoc>[] = []
  const mode = textMode(q)
  if (mode === 'index') f.$text = { $search: indexedTerms(q.text!.terms).join(' ') }
  if (mode === 'nothing') f._id = { $in: [] }
  for (const t of q.text?.shortTerms ?? []) and.push({ title: { $regex: shortTermPattern(t) } })
  // Every status and both activity values named, never left out: the list indexes lead with
  // (status, isActive), and the server gives their order only over point conditions on them
  // (one ordered scan per value, merged), so a moderator's list sorts on the index too.
  f.status = { $in: q.statuses === 'all' ? [...CONTENT_STATUSES] : q.statuses }
  f.isActive = q.includeInactive ? { $in: [true, false] } : true
  if (q.approvedSince) f.approvedAt = { $gte: new Date(q.approvedSince) }
  if (q.submittedBy) f.submittedBy = { $in: oids([q.submittedBy]) }
  if (q.createdBefore) f.createdAt = { $lte: new Date(q.createdBefore) }
  if (q.groupIds) f.group = { $in: oids(q.groupIds) }
  if (q.channelIds) f.channel = { $in: oids(q.channelIds) }
  if (q.platformIds) f.platform = { $in: oids(q.platformIds) }
  if (q.tags) f.tagSlugs = { $in: q.tags }
  if (q.urlKey !== undefined) f.urlKey = q.urlKey
  for (const [field, values] of valueFilters(q)) (f as Record<string, unknown>)[field.mongo] = { $in: values }
  if (and.length) f.$and = and
  return f
}

/** One submitter's items (GET /auth/me/submissions); inactive ones only when the caller may see them. */
export function submissionsFilter(q: Pick<SubmissionsQuery, 'submitterId' | 'includeInactive'>): Filter<ContentDoc> {
  // A malformed id is no submitter: it matches nothing.
  const f: Filter<ContentDoc> = { submittedBy: isHexId(q.submitterId) ? oid(q.submitterId) : { $in: [] } }
  if (!q.includeInactive) f.isActive = true
  return f
}

export const SUBMISSIONS_SORT: Sort = { createdAt: -1, _id: -1 }

/** Items stored under a normalised URL, the original first, then legacy copies. */
export const urlKeyFilter = (urlKey: string): Filter<ContentDoc> => ({ urlKey })
export const URL_KEY_SORT: Sort = { urlKeyOrdinal: 1, createdAt: 1, _id: 1 }

/** Backfill: rows written before URL keys existed, oldest first (null matches a missing field too). */
export const MISSING_URL_KEY: Filter<ContentDoc> = { urlKey: null }
/**
 * The backfill walks the collection by _id, each batch after the last one's id: one pass over
 * the _id index in all (sorted by createdAt, unindexed, each batch scanned every row again: N²/500).
 * Copies of a URL take their ordinals in _id order, which is insertion order.
 */
export const BACKFILL_SORT: Sort = { _id: 1 }
export const missingUrlKeyAfter = (after: ObjectId | undefined): Filter<ContentDoc> => (after ? { ...MISSING_URL_KEY, _id: { $gt: after } } : MISSING_URL_KEY)

/** Sets a row's key only if it still has none (a concurrent start-up may have done it). */
export function setUrlKey(id: ObjectId, key: string, ordinal: number) {
  const filter: Filter<ContentDoc> = { _id: id, urlKey: null }
  const update: UpdateFilter<ContentDoc> = { $set: { urlKey: key, urlKeyOrdinal: ordinal } }
  return { filter, update }
}

const SORTS: Record<ContentSort, Sort> = {
  newest: { approvedAt: -1, _id: -1 },
  oldest: { approvedAt: 1, _id: 1 },
  alpha: { title: 1, _id: 1 },
  submittedNewest: { createdAt: -1, _id: -1 },
  submittedOldest: { createdAt: 1, _id: 1 },
  relevance: { score: TEXT_SCORE, approvedAt: -1, _id: -1 },
}

/** Relevance needs the text index's score; without it, newest first (as on SQLite). */
export function contentSort(q: Pick<ContentListQuery, 'sort' | 'text'>): Sort {
  return SORTS[q.sort === 'relevance' && textMode(q) !== 'index' ? 'newest' : q.sort]
}

export function contentProjection(q: Pick<ContentListQuery, 'text'>): Document {
  return textMode(q) === 'index' ? { ...CONTENT_PROJECTION, score: TEXT_SCORE } : CONTENT_PROJECTION
}

/** The list indexes' key patterns (./indexes builds them under these names); each carries the title. */
export const LIST_INDEX_KEYS = {
  raw_content_list: { status: 1, isActive: 1, approvedAt: -1, _id: -1, title: 1 },
  raw_content_alpha: { status: 1, isActive: 1, title: 1, _id: 1 },
  raw_content_submitted: { status: 1, isActive: 1, createdAt: -1, _id: -1, title: 1 },
} as const

/** The list index whose keys give each sort. */
const SORT_INDEX: Record<Exclude<ContentSort, 'relevance'>, keyof typeof LIST_INDEX_KEYS> = {
  newest: 'raw_content_list',
  oldest: 'raw_content_list',
  alpha: 'raw_content_alpha',
  submittedNewest: 'raw_content_submitted',
  submittedOldest: 'raw_content_submitted',
}

/**
 * Short terms are substrings of the title (unanchored, as SQLite's LIKE): the sort's list
 * index carries the title, so the server walks it in order and tests them on index keys,
 * fetching only the documents that match, instead of sorting every match in memory.
 */
export function contentHint(q: ContentListQuery): Document | undefined {
  if (textMode(q) === 'index' || !q.text?.shortTerms.length) return undefined
  // By key pattern: an older build's index of the same definition under another name serves too.
  return LIST_INDEX_KEYS[SORT_INDEX[q.sort === 'relevance' ? 'newest' : q.sort]]
}

/** Approved, active items sharing the channel or a tag, scored 2×channel + shared tags. */
export function relatedPipeline(item: Pick<ContentRecord, 'id' | 'channelId' | 'tagSlugs'>, limit: number): Document[] {
  const channel: ObjectId | null = item.channelId && isHexId(item.channelId) ? oid(item.channelId) : null
  const or: Filter<ContentDoc>[] = [{ tagSlugs: { $in: item.tagSlugs } }]
  if (channel) or.push({ channel })
  return [
    { $match: { status: 'approved', isActive: true, _id: { $ne: oid(item.id) }, $or: or } },
    {
      $addFields: {
        score: {
          $add: [
            channel ? { $cond: [{ $eq: ['$channel', channel] }, 2, 0] } : 0,
            { $size: { $setIntersection: [{ $ifNull: ['$tagSlugs', []] }, item.tagSlugs] } },
          ],
        },
      },
    },
    { $sort: { score: -1, approvedAt: -1, _id: -1 } },
    { $limit: limit },
    { $project: CONTENT_PROJECTION },
  ]
}

/** An approved, active row's related score against `item` (2 × same channel + shared tags); 0: not related. */
function relatedScore(item: Pick<ContentRecord, 'id' | 'channelId' | 'tagSlugs'>, row: ContentRecord): number {
  if (row.id === item.id || row.status !== 'approved' || !row.isActive) return 0
  let score = item.channelId && row.channelId === item.channelId ? 2 : 0
  for (const slug of row.tagSlugs) if (item.tagSlugs.includes(slug)) score += 1
  return score
}

/**
 * Related items carried to a newer content version without reading every holder again
 * (relatedPipeline's answer is the best `limit` of every related row by score, approval, id):
 * the rows written since (`changed`: their ids; `now`: those rows as they are now, any that
 * still exist) are scored and merged into the kept answer. Undefined when a shown row was
 * written since (it may have dropped out, letting an unseen row in): read it whole again.
 */
export function carryRelated(
  item: Pick<ContentRecord, 'id' | 'channelId' | 'tagSlugs'>,
  kept: readonly ContentRecord[],
  changed: ReadonlySet<string>,
  now: readonly ContentRecord[],
  limit: number,
): ContentRecord[] | undefined {
  if (kept.some((row) => changed.has(row.id))) return undefined
  const scored = [...kept, ...now].map((row) => ({ row, score: relatedScore(item, row) })).filter((r) => r.score > 0)
  const time = (row: ContentRecord) => row.approvedAt ?? ''
  scored.sort((a, b) => b.score - a.score || (time(a.row) < time(b.row) ? 1 : time(a.row) > time(b.row) ? -1 : 0) || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0))
  return scored.slice(0, limit).map((r) => r.row)
}

export function tagFilter(q: Pick<TagListQuery, 'facetIds' | 'prefix'>): Filter<TagDoc> {
  const f: Filter<TagDoc> = {}
  if (q.facetIds) f.facet = { $in: oids(q.facetIds) }
  if (q.prefix) {
    const re = { $regex: `^${escapeRegex(q.prefix)}`, $options: 'i' }
    f.$or = [{ slug: re }, { label: re }]
  }
  return f
}

export const TAG_SORT: Sort = { label: 1, slug: 1 }

/**
 * Approved, active content holding `slug`: equality on the three leading keys of raw_content_tags
 * ({tagSlugs, status, isActive, approvedAt, _id}), so the server counts index keys and fetches no
 * document.
 */
export function tagUsageFilter(slug: string): Filter<ContentDoc> {
  return { tagSlugs: slug, status: 'approved', isActive: true }
}
