/**
 * GET /content query parameters -> a validated list request. Each spec rule has its own
 * code: pagination.invalid, sort.unsupported, query.too_short, validation.failed; the
 * status permission check (403) lives in the content service.
 */
import type { ContentSort } from '../db/engine'
import { splitTerms } from '../db/searchTerms'
import { ApiError, validationFailed, type FieldProblem } from '../errors'
import { parsePagination } from '../pagination'
import { hasControlCharacters, TEXT_LIMITS, textLength } from '../text'
import { SLUG_PATTERN } from '../slug'
import { urlKeyOf } from '../urlNormalize'
import { isAbsoluteHttpUrl } from '../urlPolicy'

export const PERIODS = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30, '90d': 24 * 90, all: 0 } as const
export type Period = keyof typeof PERIODS
export const LIST_SORTS = ['newest', 'oldest', 'alpha'] as const
export const RESERVED_SORTS = ['trending', 'usage']
export const STATUS_FILTERS = ['approved', 'pending', 'rejected', 'all'] as const
const MAX_LIST_VALUES = 50

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
  /** Queue-only filters (not read from the public query). */
  submittedBy?: string
  createdBefore?: string
}

/** Comma-separated slugs: trimmed, empties dropped, de-duplicated, each matching the pattern. */
export function slugList(query: URLSearchParams, field: string, problems: FieldProblem[]): string[] | undefined {
  const raw = query.get(field)
  if (raw === null) return undefined
  const values = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))]
  if (values.length === 0) return undefined
  if (values.length > MAX_LIST_VALUES) problems.push({ field, constraint: 'max', value: raw })
  for (const v of values) if (!SLUG_PATTERN.test(v)) problems.push({ field, constraint: 'pattern', value: v })
  return values
}

function singleSlug(query: URLSearchParams, field: string, problems: FieldProblem[]): string | undefined {
  const raw = query.get(field)?.trim()
  if (!raw) return undefined
  if (!SLUG_PATTERN.test(raw)) problems.push({ field, constraint: 'pattern', value: raw })
  return raw
}

/** Words of q: the one tokenizer both engines' searches share (src/db/searchTerms). */
export { splitTerms }

export function parseListQuery(query: URLSearchParams): ListParams {
  const { offset, limit } = parsePagination(query)

  const sortRaw = query.get('sort')
  if (sortRaw !== null && RESERVED_SORTS.includes(sortRaw)) {
    throw new ApiError(400, 'sort.unsupported', `sort=${sortRaw} is reserved and not supported yet.`, {
      sort: sortRaw,
      supported: [...LIST_SORTS],
    })
  }

  // An empty q (an empty search box) is no search; 1 character is too short.
  const q = query.get('q')?.trim() || undefined
  if (q !== undefined && [...q].length < 2) {
    throw new ApiError(400, 'query.too_short', 'q must be at least 2 characters.', { field: 'q', min: 2, value: q })
  }

  const problems: FieldProblem[] = []
  if (q !== undefined && hasControlCharacters(q)) problems.push({ field: 'q', constraint: 'control_characters', value: q })
  else if (q !== undefined && textLength(q) > TEXT_LIMITS.contentQuery) problems.push({ field: 'q', constraint: 'max', value: q })
  if (sortRaw !== null && !(LIST_SORTS as readonly string[]).includes(sortRaw)) {
    problems.push({ field: 'sort', constraint: 'enum', value: sortRaw })
  }
  const period = query.get('period') ?? 'all'
  if (!(period in PERIODS)) problems.push({ field: 'period', constraint: 'enum', value: period })
  const status = query.get('status') ?? 'approved'
  if (!(STATUS_FILTERS as readonly string[]).includes(status)) problems.push({ field: 'status', constraint: 'enum', value: status })
  const estimateRaw = query.get('estimate')
  if (estimateRaw !== null && estimateRaw !== 'true' && estimateRaw !== 'false') {
    problems.push({ field: 'estimate', constraint: 'enum', value: estimateRaw })
  }
  const tags = slugList(query, 'tags', problems)
  const platforms = slugList(query, 'platform', problems)
  const group = singleSlug(query, 'group', problems)
  const channel = singleSlug(query, 'channel', problems)
  if (channel !== undefined && group === undefined) problems.push({ field: 'channel', constraint: 'requires_group' })
  const url = query.get('url') ?? undefined
  if (url !== undefined && (textLength(url) > TEXT_LIMITS.url || !isAbsoluteHttpUrl(url))) {
    problems.push({ field: 'url', constraint: 'url', value: url })
  }
  if (problems.length > 0) throw validationFailed(problems)

  return {
    q,
    terms: q === undefined ? undefined : splitTerms(q),
    tags,
    group,
    channel,
    platforms,
    period: period as Period,
    // With a search and no explicit sort, the best matches come first.
    sort: sortRaw === null ? (q !== undefined ? 'relevance' : 'newest') : (sortRaw as ListParams['sort']),
    status: status as ListParams['status'],
    offset,
    limit,
    estimate: estimateRaw === 'true',
    urlKey: url === undefined ? undefined : urlKeyOf(url),
  }
}
