import { createHash } from 'node:crypto'

/** A weak entity tag over a serialized payload. */
export function weakEtag(serialized: string): string {
  return `W/"${createHash('sha1').update(serialized).digest('base64url')}"`
}

/** If-None-Match comparison is weak: `W/` prefixes are ignored, lists and `*` accepted. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  const bare = (t: string) => t.trim().replace(/^W\//, '')
  const target = bare(etag)
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === target)
}
