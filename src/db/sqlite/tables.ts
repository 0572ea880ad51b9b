/**
 * The one place that names Payload's SQLite tables for the service's raw SQL (Payload names a
 * collection's or global's table after its slug in snake_case). Start-up checks the names
 * against Payload's own table map (checkTableNames), so a renamed table fails at start, not
 * in a query.
 */
export const TABLES = {
  content: 'content',
  tags: 'tags',
  tagRenames: 'tag_renames',
  moderationEvents: 'moderation_events',
  refreshTokens: 'refresh_tokens',
  notifications: 'notifications',
  media: 'media',
  branding: 'branding',
  surfaces: 'surfaces',
  groups: 'groups',
  channels: 'channels',
  platforms: 'platforms',
  facets: 'facets',
  slugClaims: 'slug_claims',
} as const

/** Payload's table of a collection or global slug (`tag-renames` → `tag_renames`). */
export const tableOf = (slug: string): string => slug.replace(/-/g, '_')

/** Throws when Payload names one of the tables above differently. */
export function checkTableNames(payloadTableNames: ReadonlyMap<string, string>): void {
  for (const name of Object.values(TABLES)) {
    const actual = payloadTableNames.get(name)
    if (actual !== name) throw new Error(`Payload stores "${name}" as "${actual ?? '(none)'}"; update src/db/sqlite/tables.ts.`)
  }
}
