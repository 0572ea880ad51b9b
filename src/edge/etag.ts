const bare = (tag: string) => {
  const t = tag.trim()
  return t.startsWith('W/') ? t.slice(2) : t
}

/** If-None-Match comparison is weak: `W/` prefixes are ignored, lists and `*` accepted. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  // The usual case: the client sends back the tag it was given.
  if (ifNoneMatch === etag) return true
  const target = bare(etag)
  for (const tag of ifNoneMatch.split(',')) {
    const t = bare(tag)
    if (t === '*' || t === target) return true
  }
  return false
}
