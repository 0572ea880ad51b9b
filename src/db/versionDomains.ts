/**
 * The versioned domains: each has a change counter that every write to its collections
 * moves in the same transaction (SQLite: triggers, made by a migration in src/db/migrations/sqlite
 * and checked at start-up by src/db/sqlite/contentSchema, so a change here needs a migration that
 * creates or drops them; MongoDB: hooks through onDomainWrite and the raw write paths,
 * src/db/mongo/versions). Every cache keys on its domain's counter, read once per request:
 * nothing else invalidates anything.
 */
export type Domain = 'content' | 'taxonomy' | 'branding'

export const DOMAINS: readonly Domain[] = ['content', 'taxonomy', 'branding']

/**
 * The collections and globals whose every write moves each counter. `branding` also moves
 * when an uploaded file is updated or deleted (the branding record shows its URL); creating
 * one does not (nothing refers to it before a branding write, which moves the counter).
 */
export const VERSIONED_COLLECTIONS: Record<Domain, readonly string[]> = {
  content: ['content'],
  taxonomy: ['surfaces', 'groups', 'channels', 'platforms', 'tags', 'facets'],
  branding: ['branding'],
}

/** Collections whose updates and deletes (not inserts) move a domain's counter. */
export const REFERENCED_COLLECTIONS: Partial<Record<Domain, readonly string[]>> = {
  branding: ['media'],
}
