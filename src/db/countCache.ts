/**
 * Results reused while the content data version is unchanged: exact list totals (counting
 * 100k index entries per request would dominate a list's cost), the ranked row order of
 * text searches and the per-term scores they are summed from (scoring every match per page
 * would too). The version is read per request
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
  private weight = 0

  /** At most maxEntries values, and at most maxWeight in total as `weigh` counts it. */
  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Infinity,
    private readonly weigh: (value: T) => number = () => 1,
  ) {}

  async get(version: string, key: string, compute: () => Promise<T> | T): Promise<T> {
    const full = `${version}#${localGeneration}`
    if (full !== this.version) {
      this.entries.clear()
      this.weight = 0
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
    if (this.version === full && !this.entries.has(key)) {
      const weight = this.weigh(value)
      if (weight > this.maxWeight) return value
      // Evict the least recent until the newcomer fits.
      while (this.entries.size >= this.maxEntries || this.weight + weight > this.maxWeight) {
        const [oldest, old] = this.entries.entries().next().value!
        this.entries.delete(oldest)
        this.weight -= this.weigh(old)
      }
      this.entries.set(key, value)
      this.weight += weight
    }
    return value
  }
}

const counts = new VersionedCache<number>(500)

export function cachedCount(version: string, key: string, count: () => Promise<number>): Promise<number> {
  return counts.get(version, key, count)
}
