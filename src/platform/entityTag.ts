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

/** A tag without its weak marker and spaces: `W/"x"` and `"x"` name the same thing. */
const opaque = (tag: string) => {
  const t = tag.trim()
  return t.startsWith('W/') ? t.slice(2) : t
}

/** The weak comparison (RFC 9110 8.8.3.2) of a list of tags with one: `W/` ignored, `*` matches any. */
export function weakMatch(tags: Iterable<string>, etag: string): boolean {
  const target = opaque(etag)
  for (const tag of tags) {
    const t = opaque(tag)
    if (t === '*' || t === target) return true
  }
  return false
}

/**
 * Whether an If-Match list admits the stored version (`*`: any stored version). Weak, as every
 * tag this service gives names a version, not a representation.
 */
export function versionMatches(ifMatch: readonly string[], updatedAt: string): boolean {
  return weakMatch(ifMatch, versionTag(updatedAt))
}
