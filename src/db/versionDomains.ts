/**
 * The versioned domains: each has a change counter that every write to its collections
 * moves in the same transaction (SQLite: triggers, src/db/sqlite/contentSchema; MongoDB:
 * hooks and the raw write paths, src/db/mongo/versions). Caches key on the counter.
 */
export type Domain = 'content' | 'taxonomy'

export const VERSIONED_COLLECTIONS: Record<Domain, readonly string[]> = {
  content: ['content'],
  taxonomy: ['surfaces', 'groups', 'channels', 'platforms', 'tags', 'facets'],
}
