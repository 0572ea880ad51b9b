/**
 * Exact totals for list filters, reused while the content data version is unchanged.
 * Counting 100k index entries per request would dominate the list's cost; the version
 * (read per request, O(1)) makes a cached total safe across processes.
 */
const MAX_ENTRIES = 500
const cache = new Map<string, number>()
let cachedVersion = ''
let localGeneration = 0

/** Same-process writes bump this so even a same-millisecond write is seen. */
export function invalidateCounts(): void {
  localGeneration += 1
}

export async function cachedCount(version: string, key: string, count: () => Promise<number>): Promise<number> {
  const fullVersion = `${version}#${localGeneration}`
  if (fullVersion !== cachedVersion) {
    cache.clear()
    cachedVersion = fullVersion
  }
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const total = await count()
  if (cachedVersion === fullVersion) {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!)
    cache.set(key, total)
  }
  return total
}
