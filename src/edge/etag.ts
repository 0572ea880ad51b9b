import { weakMatch } from '../platform/entityTag'

/** If-None-Match comparison is weak: `W/` prefixes are ignored, lists and `*` accepted. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  // The usual case: the client sends back the tag it was given.
  if (ifNoneMatch === etag) return true
  return weakMatch(ifNoneMatch.split(','), etag)
}
