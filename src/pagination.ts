/**
 * Pagination, for every paginated list (/content, /tags, /users): one set of rules, one
 * error. offset is 0..PAGINATION_MAX_OFFSET, limit 0..PAGINATION_MAX_LIMIT (limit=0 is the
 * count-only request: data [], the full total); anything else is 400 `pagination.invalid`
 * with `[{ field, constraint: "range", value, min, max }]`.
 */
import { getConfig } from './config'
import { ApiError } from './errors'

export type Page = { offset: number; limit: number }

export type Pagination = Page & { total: number; hasMore: boolean }

export function parsePagination(query: URLSearchParams): Page {
  const { defaultLimit, maxLimit, maxOffset } = getConfig().pagination
  const read = (name: keyof Page, fallback: number, min: number, max: number) => {
    const raw = query.get(name)
    if (raw === null) return fallback
    const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
    if (!(value >= min && value <= max)) {
      throw new ApiError(400, 'pagination.invalid', `${name} must be an integer from ${min} to ${max}.`, [
        { field: name, constraint: 'range', value: raw, min, max },
      ])
    }
    return value
  }
  return { offset: read('offset', 0, 0, maxOffset), limit: read('limit', defaultLimit, 0, maxLimit) }
}

/** The answer's pagination for a page of `returned` rows out of `total`. */
export const paginationOf = (page: Page, returned: number, total: number): Pagination => ({
  offset: page.offset,
  limit: page.limit,
  total,
  hasMore: page.offset + returned < total,
})
