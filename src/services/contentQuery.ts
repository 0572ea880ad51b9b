/**
 * The vocabulary of the content list request: periods, sorts, status filters, and the
 * request the content service takes (ListParams). GET /content's query is defined once, as
 * a zod schema in endpoints/queries.ts, whose output is a ListParams; the moderation queue
 * builds one too.
 */
import type { ContentSort, ValueFilters } from '../db/engine'

export const PERIODS = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30, '90d': 24 * 90, all: 0 } as const
export type Period = keyof typeof PERIODS
export const LIST_SORTS = ['newest', 'oldest', 'alpha'] as const
export const RESERVED_SORTS = ['trending', 'usage']
export const STATUS_FILTERS = ['approved', 'pending', 'rejected', 'all'] as const

export type ListParams = {
  q?: string
  terms?: { terms: string[]; shortTerms: string[] }
  tags?: string[]
  group?: string
  channel?: string
  platforms?: string[]
  period: Period
  sort: ContentSort
  status: (typeof STATUS_FILTERS)[number]
  offset: number
  limit: number
  estimate: boolean
  /** ?url=: the normalised key of an absolute http(s) URL ("already submitted?"). */
  urlKey?: string
  /** The record's value filters (src/db/contentRecord: fields declared with `filter`). */
  values?: ValueFilters
  /** Queue-only filters (not read from the public query). */
  submittedBy?: string
  createdBefore?: string
}

/** The record's value filters: GET /content's `?<field>=a,b`, one per field declared with `filter`. */
export { VALUE_FILTERS, type ValueFilterName } from '../db/contentRecord'
export type { ValueFilters }

/** Words of q: the one tokenizer both engines' searches share (src/db/searchTerms). */
export { splitTerms } from '../db/searchTerms'
