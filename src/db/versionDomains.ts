/**
 * The cached domains: every cache keys on its domain's generation (src/db/generations), which
 * moves when a committed write to one of the domain's collections becomes visible (SQLite:
 * counters moved by triggers, made by a migration in src/db/migrations/sqlite and checked at
 * start-up by src/db/sqlite/contentSchema, so a change here needs a migration that creates or
 * drops them; MongoDB: a change stream, src/db/mongo/changeFeed). Nothing else invalidates anything.
 */
export type Domain = 'content' | 'taxonomy' | 'branding'

export const DOMAINS: readonly Domain[] = ['content', 'taxonomy', 'branding']

/**
 * The collections and globals whose every write moves each generation. `branding` also moves
 * when an uploaded file is updated or deleted (the branding record shows its URL); creating
 * one does not (nothing refers to it before a branding write, which moves it).
 */
export const VERSIONED_COLLECTIONS: Record<Domain, readonly string[]> = {
  content: ['content'],
  taxonomy: ['surfaces', 'groups', 'channels', 'platforms', 'tags', 'facets'],
  branding: ['branding'],
}

/** Collections whose updates and deletes (not inserts) move a domain's generation. */
export const REFERENCED_COLLECTIONS: Partial<Record<Domain, readonly string[]>> = {
  branding: ['media'],
}
