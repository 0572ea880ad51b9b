/** The engine-neutral shapes the content fast path reads and writes (src/db/*ContentStore). */
import type { ContentRecord, ContentStatus, NewContent, ValueFilters } from './contentRecord'

export { CONTENT_STATUSES, type ContentRecord, type ContentStatus, type NewContent, type ValueFilters } from './contentRecord'

/** newest/oldest by approval; submittedNewest/submittedOldest by submission (the moderation queue). */
export type ContentSort = 'newest' | 'oldest' | 'alpha' | 'relevance' | 'submittedNewest' | 'submittedOldest'

/** Filters, already resolved to ids. Arrays are never empty (the service short-circuits). */
export type ContentFilter = {
  statuses: ContentStatus[] | 'all'
  includeInactive: boolean
  /** terms: >= 3 characters, scored by the text index; shortTerms: substring of title, each required. */
  text?: { terms: string[]; shortTerms: string[] }
  tags?: string[]
  groupIds?: string[]
  channelIds?: string[]
  platformIds?: string[]
  /** ISO timestamp: approvedAt >= this. */
  approvedSince?: string
  /** The normalised URL (src/platform/urlNormalize.ts): items stored under this key. */
  urlKey?: string
  /** The submitter's user id (the moderation queue). */
  submittedBy?: string
  /** ISO timestamp: createdAt <= this (the queue's "older than" filter). */
  createdBefore?: string
  /** The record's value filters (../contentRecord: fields declared with `filter`). */
  values?: ValueFilters
}

export type ContentListQuery = ContentFilter & {
  sort: ContentSort
  offset: number
  /** 0 = count only. */
  limit: number
  /** The caller accepts an approximate total on large unfiltered lists. */
  estimate: boolean
}

export type ContentPage = { rows: ContentRecord[]; total: number; estimated: boolean }

/** One submitter's items, newest first (createdAt desc, id desc). */
export type SubmissionsQuery = { submitterId: string; includeInactive: boolean; offset: number; limit: number }

export type TagRecord = {
  id: string
  slug: string
  label: string
  facetId: string | null
  createdAt: string
  updatedAt: string
}

export type TagListQuery = { facetIds?: string[]; prefix?: string; offset: number; limit: number }

export type NewTag = { id?: string; slug: string; label: string; facetId: string; createdAt: string; updatedAt: string }

/** The one interface over both engines for the content/tag hot paths. */
export interface ContentStore {
  /**
   * Idempotent: indexes, the text index (FTS5 + triggers on SQLite), side tables; the
   * backfill of missing URL keys, then the unique (urlKey, urlKeyOrdinal) index.
   */
  prepare(): Promise<void>
  /**
   * Reads once what the first public search would otherwise read on a request (SQLite: the
   * search corpus, seconds at a million items; docs/benchmarks.md, *Measurements behind the code*); nothing on MongoDB. Before the service is ready.
   */
  primeSearch(): Promise<void>
  listContent(query: ContentListQuery): Promise<ContentPage>
  contentBySlug(slug: string): Promise<ContentRecord | null>
  /** Every item stored under a normalised URL, oldest first (legacy duplicates included). */
  contentByUrlKey(urlKey: string): Promise<ContentRecord[]>
  listSubmissions(query: SubmissionsQuery): Promise<ContentPage>
  /** By the document id the admin console addresses; a malformed id finds nothing. */
  contentById(id: string): Promise<ContentRecord | null>
  /** Approved, active items sharing a channel or a tag, scored 2×channel + shared tags. */
  relatedContent(item: ContentRecord, limit: number): Promise<ContentRecord[]>
  countContent(): Promise<number>
  listTags(query: TagListQuery): Promise<{ rows: TagRecord[]; total: number }>
  tagBySlug(slug: string): Promise<TagRecord | null>
  /** Approved, active content holding each tag. */
  tagUsage(slugs: string[]): Promise<Map<string, number>>
  /**
   * Slugs items may hold that are no tag's while a tag rename runs in steps (MongoDB: the new slug
   * before the switch, the old one after it); answers leave them out. Empty on SQLite, whose
   * rename is one transaction.
   */
  hiddenTagSlugs(): Promise<ReadonlySet<string>>
  insertContent(rows: NewContent[]): Promise<void>
  /**
   * A large load (the seed): batches drawn one at a time so the whole set is never in
   * memory, progress reported after each; the engine may defer index work to the end.
   */
  bulkLoadContent(batches: Iterable<NewContent[]>, progress?: BulkProgress): Promise<number>
  insertTags(rows: NewTag[]): Promise<void>
}

/** What a bulk load reports: rows written so far, then each finishing step by name. */
export type BulkProgress = { rows(done: number): void; step(name: string): void }
