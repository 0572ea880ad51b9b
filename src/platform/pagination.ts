/**
 * Pagination, for every paginated list (/content, /tags, /users, ...): one set of rules,
 * one error. offset is 0..PAGINATION_MAX_OFFSET, limit 0..PAGINATION_MAX_LIMIT (limit=0 is
 * the count-only request: data [], the full total); anything else is 400
 * `pagination.invalid` with `[{ field, constraint: "range", value, min, max }]`. The query
 * parameters' schema (endpoints/queries.ts) applies these rules.
 */
import { getConfig } from './config'
import { ApiError } from './errors'

export type Page = { offset: number; limit: number }

export type Pagination = Page & { total: number; hasMore: boolean }

export type PageBound = { fallback: number; min: number; max: number }

/** The bounds now: read from the configuration at each request, never frozen at import. */
export function pageBounds(): Record<keyof Page, PageBound> {
  const { defaultLimit, maxLimit, maxOffset } = getConfig().pagination
  return { offset: { fallback: 0, min: 0, max: maxOffset }, limit: { fallback: defaultLimit, min: 0, max: maxLimit } }
}

/**
 * offset or limit from its query value: absent is the fallback; only plain decimal digits
 * within the bounds are a page (no sign, exponent, fraction, spaces or hexadecimal).
 */
export function pageValue(name: keyof Page, raw: string | undefined): number | ApiError {
  const { fallback, min, max } = pageBounds()[name]
  if (raw === undefined) return fallback
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
  if (value >= min && value <= max) return value
  return new ApiError(400, 'pagination.invalid', `${name} must be an integer from ${min} to ${max}.`, [
    { field: name, constraint: 'range', value: raw, min, max },
  ])
}

/** The answer's pagination for a page of `returned` rows out of `total`. */
export const paginationOf = (page: Page, returned: number, total: number): Pagination => ({
  offset: page.offset,
  limit: page.limit,
  total,
  hasMore: page.offset + returned < total,
})
