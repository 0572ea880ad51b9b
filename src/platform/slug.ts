/**
 * Slugs: the one pattern, the reserved list, the suggestion algorithm, the default a slug
 * takes when none is given (content, tags and taxonomy alike), and the checks used both by
 * Payload field validation (admin panel, local API) and at the API boundary.
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

/** The entities POST /slug/suggest knows (the same rule serves them all). */
export const SLUG_ENTITIES = ['content', 'tag', 'surface', 'group', 'channel', 'platform'] as const

/**
 * The default slug's candidates, in order: the suggestion itself unless it is reserved, then
 * `-2`, `-3`, … (the base shortened so the suffix fits in 64 characters). Nothing when the
 * value has no letters or digits and no fallback is given.
 */
export function* derivedSlugs(value: string, fallback?: string): Generator<string> {
  const base = suggestSlug(value) || fallback
  if (!base) return
  if (!RESERVED_SLUGS.includes(base)) yield base
  for (let n = 2; ; n++) {
    const suffix = `-${n}`
    yield `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`
  }
}

/** How many candidates a default tries before giving up with 409 slug.conflict. */
export const DERIVED_SLUG_ATTEMPTS = 50

const noAlphanumerics = (field: string, value: string) =>
  validationFailed([{ field, constraint: 'no_alphanumerics', value }])

/**
 * POST /slug/suggest: the default's first candidate. Uniqueness is not checked (per spec),
 * so a reserved suggestion already carries its `-2`; a value with no letters or digits is
 * 400 validation.failed (constraint `no_alphanumerics`).
 */
export function suggest(value: string): { slug: string } {
  const first = derivedSlugs(value).next()
  if (first.done) throw noAlphanumerics('value', value)
  return { slug: first.value }
}

/**
 * The slug a new record takes: an explicit one is checked (400 pattern, 409 slug.reserved)
 * and used as given; otherwise the first derived candidate that `isTaken` says is free.
 * `from` names the field the default derives from (reported when it has no letters or digits).
 */
export async function chooseSlug(opts: {
  explicit: unknown
  value: string
  from: string
  field?: string
  fallback?: string
  entity: string
  isTaken: (slug: string) => Promise<boolean>
}): Promise<string> {
  if (opts.explicit !== undefined) return assertSlug(opts.explicit, opts.field)
  const candidates = derivedSlugs(opts.value, opts.fallback)
  for (let attempt = 0; attempt < DERIVED_SLUG_ATTEMPTS; attempt++) {
    const next = candidates.next()
    if (next.done) throw noAlphanumerics(opts.from, opts.value)
    if (!(await opts.isTaken(next.value))) return next.value
  }
  throw new ApiError(409, 'slug.conflict', `No free slug derives from "${opts.value}".`, { slug: suggestSlug(opts.value), entity: opts.entity })
}
