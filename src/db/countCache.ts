/**
 * Results reused while the content data version is unchanged: exact list totals (counting
 * 100k index entries per request would dominate a list's cost) and the ranked row order of
 * text searches (scoring every match per page would too). The version is read per request
 * in O(1), so a cached value is never served after a write, in any process.
 */
let localGeneration = 0

/** Same-process writes bump this so even a same-millisecond write is seen. */
export function invalidateCounts(): void {
  localGeneration += 1
}

export class VersionedCache<T> {
  private readonly entries = new Map<string, T>()
  private version = ''

  constructor(private readonly maxEntries: number) {}

  async get(version: string, key: string, compute: () => Promise<T> | T): Promise<T> {
    const full = `${version}#${localGeneration}`
    if (full !== this.version) {
      this.entries.clear()
      this.version = full
    }
    const hit = this.entries.get(key)
    if (hit !== undefined) {
      // Refresh recency (Map keeps insertion order: the first key is the least recent).
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit
    }
    const value = await compute()
    if (this.version === full) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
      this.entries.set(key, value)
    }
    return value
  }
}

const counts = new VersionedCache<number>(500)

export function cachedCount(version: string, key: string, count: () => Promise<number>): Promise<number> {
  return counts.get(version, key, count)
}
