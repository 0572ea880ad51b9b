import { createHash } from 'node:crypto'

/**
 * A weak entity tag over a serialized payload. A platform utility, not HTTP code: the catalog
 * service stamps its cached record with one (the spec puts `etag` in the body), and the HTTP
 * edge compares it with If-None-Match (src/edge/etag.ts).
 */
export function weakEtag(serialized: string): string {
  return `W/"${createHash('sha1').update(serialized).digest('base64url')}"`
}

/**
 * A stored record's version as an entity tag: its `updatedAt` to the millisecond (a write never
 * reuses its record's instant: collections/hooks/preconditions). Weak, because an answer may
 * carry derived figures (a tag's usage count) that move without the record; it names the version
 * a conditional write compares (If-Match), not the bytes.
 */
export function versionTag(updatedAt: string): string {
  return `W/"${Date.parse(updatedAt).toString(36)}"`
}

/** The opaque part of a tag: `W/"x"` and `"x"` name the same version. */
const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag)

/**
 * Whether an If-Match list admits the stored version (`*`: any stored version). The comparison
 * ignores `W/`: every tag this service gives names a version, not a representation.
 */
export function versionMatches(ifMatch: readonly string[], updatedAt: string): boolean {
  const current = opaque(versionTag(updatedAt))
  return ifMatch.some((t) => t === '*' || opaque(t) === current)
}
