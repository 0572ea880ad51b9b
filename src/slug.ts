/**
 * Slugs: the one pattern, the reserved list, the suggestion algorithm, and the checks used
 * both by Payload field validation (admin panel, local API) and at the API boundary.
 */
import { ApiError, validationFailed } from './errors'

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/
export const SLUG_MAX_LENGTH = 64

export const RESERVED_SLUGS: readonly string[] = [
  'new', 'edit', 'admin', 'api', 'auth', 'catalog', 'search', 'meta', 'tags', 'settings',
]

export type SlugProblem = 'pattern' | 'reserved'

export function slugProblem(value: unknown): SlugProblem | null {
  if (typeof value !== 'string' || !SLUG_PATTERN.test(value)) return 'pattern'
  if (RESERVED_SLUGS.includes(value)) return 'reserved'
  return null
}

/** API boundary: 400 validation.failed (pattern) or 409 slug.reserved. */
export function assertSlug(value: unknown, field = 'slug'): string {
  const problem = slugProblem(value)
  if (problem === 'pattern') throw validationFailed([{ field, constraint: 'pattern', value }])
  if (problem === 'reserved') {
    throw new ApiError(409, 'slug.reserved', `"${String(value)}" is a reserved slug.`, { slug: value, field })
  }
  return value as string
}

/** Payload field validation: the same rule for the admin panel and the local API. */
export function validateSlugField(value: unknown): true | string {
  const problem = slugProblem(value)
  if (problem === 'pattern') return 'Use 1-64 lowercase letters, digits and inner hyphens.'
  if (problem === 'reserved') return `"${String(value)}" is a reserved slug.`
  return true
}

/**
 * The suggestion algorithm. Unicode: NFKD then combining marks are dropped, so "Café" and
 * "ﬁlm" become "cafe" and "film"; letters with no ASCII decomposition (ß, ø, CJK) are
 * non-alphanumerics and become hyphens like punctuation. Lowercases, turns every run of
 * non-[a-z0-9] into one hyphen, trims to 64 characters, and never leaves a hyphen at
 * either end. May return '' when nothing alphanumeric remains.
 */
export function suggestSlug(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '')
}
