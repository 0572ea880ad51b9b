/**
 * The cached domains: every cache keys on its domain's generation (src/db/generations), which
 * moves when a committed write to one of the domain's collections becomes visible (SQLite:
 * counters moved by triggers, made by a migration in src/db/migrations/sqlite and checked at
 * start-up by src/db/sqlite/contentSchema, so a change here needs a migration that creates or
 * drops them; MongoDB: a change stream, src/db/mongo/changeFeed). Nothing else invalidates anything.
 */
export type Domain = 'content' | 'all_content' | 'taxonomy' | 'branding'

export const DOMAINS: readonly Domain[] = ['content', 'all_content', 'taxonomy', 'branding']

/**
 * Content has two generations. `content` is what the public sees: it moves when a write touches
 * a row that is approved and active before or after it. `all_content` moves on every content
 * write: moderators' views (pending, rejected, deleted rows) key on it. A pending submission
 * moves only `all_content`, so every public page, item and search stays cached. Whatever moves
 * `content` moves `all_content` too (impliedDomains).
 */
export const PUBLIC_CONTENT_DOMAIN: Domain = 'content'
export const ALL_CONTENT_DOMAIN: Domain = 'all_content'

/** The domains a change to `domains` moves: a public content change is a content change. */
export function impliedDomains(domains: readonly Domain[]): readonly Domain[] {
  return domains.includes('content') && !domains.includes('all_content') ? [...domains, 'all_content'] : domains
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
}

/** Collections whose updates and deletes (not inserts) move a domain's generation. */
export const REFERENCED_COLLECTIONS: Partial<Record<Domain, readonly string[]>> = {
  branding: ['media'],
}
