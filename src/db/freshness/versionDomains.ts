/**
 * The cached domains: every cache keys on its domain's generation (src/db/freshness/generations), which
 * moves when a committed write to one of the domain's collections becomes visible (SQLite:
 * counters moved by triggers, made by a migration in src/db/sqlite/migrations and checked at
 * start-up by src/db/sqlite/contentSchema, so a change here needs a migration that creates or
 * drops them; MongoDB: a change stream, src/db/mongo/changeFeed). Nothing else invalidates anything.
 */
import { CONTENT_FIELD_NAMES, CONTENT_FIELDS } from '../contentRecord'

export type Domain = 'content' | 'all_content' | 'taxonomy' | 'branding' | 'access'

/** `access`: who may do what (users, roles), which each process's write authority keys on (src/auth/currentStanding). */
export const DOMAINS: readonly Domain[] = ['content', 'all_content', 'taxonomy', 'branding', 'access']

/**
 * Content has two generations. `content` is what the public sees: it moves when a write touches
 * a row that is approved and active before or after it. `all_content` moves on every content
 * write: moderators' views (pending, rejected, deleted rows) key on it. A pending submission
 * moves only `all_content`, so every public page, item and search stays cached. Whatever moves
 * `content` moves `all_content` too (impliedDomains).
 */

/** The domains a change to `domains` moves: a public content change is a content change. */
export function impliedDomains(domains: readonly Domain[]): readonly Domain[] {
  return domains.includes('content') && !domains.includes('all_content') ? [...domains, 'all_content'] : domains
}

/**
 * What decides which public rows a list holds, in what order, and how a search ranks them: its
 * filters, sorts and text (Payload's field names, with their SQLite columns; ./contentRecord's
 * `shape` fields). A write to a public row that
 * changes none of these moves only `all_content` and marks the row (src/db/freshness/generations): that
 * item's answers and the cached pages that show it are read again, every other public answer
 * stays (the thumbnail an approval's follow-up links, a new slug, a corrected URL spelling).
 */
export const CONTENT_SHAPE_FIELDS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(CONTENT_FIELD_NAMES.filter((name) => CONTENT_FIELDS[name].shape).map((name) => [CONTENT_FIELDS[name].mongo, CONTENT_FIELDS[name].sqlite])),
  // Not in the record (the duplicate-URL key), but `?url=` filters by it.
  urlKey: 'url_key',
}

/** A field's value as compared across a write: a related document by its id, a list or date as text. */
const comparable = (v: unknown): string => {
  if (v === undefined || v === null || v === '') return ''
  if (typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) && 'id' in v) return String((v as { id: unknown }).id)
  return JSON.stringify(v instanceof Date ? v.toISOString() : v)
}

type ContentState = Record<string, unknown> | null | undefined

/**
 * The domain a content write moves, from the row before and after it: `content` when the public
 * sees the row on either side and the write changes its shape (above) or makes or removes it;
 * `all_content` otherwise. The row itself is marked either way.
 */
export function contentWriteDomain(before: ContentState, after: ContentState): Domain {
  if (contentDomainOf(before, after) === 'all_content') return 'all_content'
  if (!before || !after) return 'content'
  return Object.keys(CONTENT_SHAPE_FIELDS).some((f) => comparable(before[f]) !== comparable(after[f])) ? 'content' : 'all_content'
}

/** Content's domain for a write that leaves a row in these states (before and after): public or not. */
export function contentDomainOf(...states: ({ status?: unknown; isActive?: unknown } | null | undefined)[]): Domain {
  return states.some((s) => s && s.status === 'approved' && s.isActive !== false) ? 'content' : 'all_content'
}

/**
 * The collections and globals whose every write moves each generation. `branding` also moves
 * when an uploaded file is updated or deleted (the branding record shows its URL); creating
 * one does not (nothing refers to it before a branding write, which moves it).
 */
export const VERSIONED_COLLECTIONS: Record<Domain, readonly string[]> = {
  // Content's triggers move `content` for public rows only, `all_content` always (see above).
  content: ['content'],
  all_content: [],
  taxonomy: ['surfaces', 'groups', 'channels', 'platforms', 'tags', 'facets'],
  branding: ['branding'],
  access: ['users', 'roles'],
}

/** Collections whose updates and deletes (not inserts) move a domain's generation. */
export const REFERENCED_COLLECTIONS: Partial<Record<Domain, readonly string[]>> = {
  branding: ['media'],
}
