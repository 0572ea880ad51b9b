/**
 * Caches keyed on a domain's generation (src/db/freshness/generations), which moves when a committed
 * write to the domain becomes visible to this process, whatever made it. The caller reads the
 * generation once per request (a memory read) and passes it in; a value cached under an older
 * generation is never served, so no write path has anything to invalidate.
 */
import { cacheCounter, type CacheCounter } from '../../platform/metrics'

/** Many values per version (list pages, totals, ranked orders, word scores), least recent evicted. */
export class VersionedCache<T> {
  private readonly entries = new Map<string, T>()
  /**
   * With keepOnSecondAsk: keys whose next ask keeps the value, oldest first: those asked once at
   * this version, and those kept at the version before (a repeated search stays repeated after
   * a write, instead of being computed twice more).
   */
  private readonly askedOnce = new Set<string>()
  private version = ''
  private weight = 0
  private readonly lookups: CacheCounter

  /**
   * `name` labels its hit and miss counters (cache_lookups_total, src/platform/metrics). At most
   * maxEntries values, and at most maxWeight in total as `weigh` counts it. `keepOnSecondAsk`
   * keeps a value only when its key is asked again, or was kept at the version before (a long
   * tail of one-off keys, such as new text searches, would otherwise fill the cache with values
   * nobody reads, and the garbage collector with work); a new key's second computation is the
   * price.
   */
  constructor(
    name: string,
    private readonly maxEntries: number,
    private readonly maxWeight = Infinity,
    private readonly weigh: (value: T) => number = () => 1,
    private readonly options: { keepOnSecondAsk?: boolean } = {},
  ) {
    this.lookups = cacheCounter(name)
  }

  /** `fresh`, when given, is asked of a hit: a value it refuses is computed again (and kept: it was kept before). */
  async get(version: string, key: string, compute: () => Promise<T> | T, fresh?: (value: T) => boolean): Promise<T> {
    if (this.lookups.off) {
      this.lookups.miss(version)
      return compute()
    }
    if (version !== this.version) {
      this.askedOnce.clear()
      if (this.options.keepOnSecondAsk) for (const kept of this.entries.keys()) this.askedOnce.add(kept)
      this.entries.clear()
      this.weight = 0
      this.version = version
    }
    let hit = this.entries.get(key)
    if (hit !== undefined && fresh && !fresh(hit)) {
      this.entries.delete(key)
      this.weight -= this.weigh(hit)
      hit = undefined
      if (this.options.keepOnSecondAsk) this.askedOnce.add(key)
    }
    if (hit !== undefined) {
      this.lookups.hit(version)
      // Refresh recency (Map keeps insertion order: the first key is the least recent).
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit
    }
    this.lookups.miss(version)
    if (this.options.keepOnSecondAsk && !this.askedOnce.delete(key)) {
      // Remembered (a key, not its value) for a while, so a second ask keeps the value.
      if (this.askedOnce.size >= 4 * this.maxEntries) this.askedOnce.delete(this.askedOnce.values().next().value!)
      this.askedOnce.add(key)
      return compute()
    }
    const value = await compute()
    // Computed from data at least as new as `version`: kept only if no newer version was seen meanwhile.
    if (this.version === version && !this.entries.has(key)) {
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

/**
 * One value per version (the catalog, the branding record), built once per version however
 * many requests ask at the same time. A build started after the counter read `version`
 * sees data at least that new, so a caller that read `version` may share it.
 */
export class VersionedValue<T> {
  private built: { version: string; value: T } | undefined
  private building: { version: string; value: Promise<T> } | undefined
  private readonly lookups: CacheCounter | undefined

  /** With a `name`, its hits and misses are counted (cache_lookups_total). */
  constructor(name?: string) {
    this.lookups = name === undefined ? undefined : cacheCounter(name)
  }

  get(version: string, build: () => Promise<T>): Promise<T> {
    if (this.lookups?.off) {
      this.lookups.miss(version)
      return build()
    }
    if (this.built?.version === version) {
      this.lookups?.hit(version)
      return Promise.resolve(this.built.value)
    }
    this.lookups?.miss(version)
    if (this.building?.version !== version) {
      const entry = { version, value: build() }
      this.building = entry
      entry.value.then(
        (value) => {
          if (this.building !== entry) return
          this.built = { version, value }
          this.building = undefined
        },
        () => {
          if (this.building === entry) this.building = undefined
        },
      )
    }
    return this.building!.value
  }
}

/** Exact list totals of one view, per its content version (counting 100k index entries per request would dominate a list). */
export function countCache(name: string): (version: string, key: string, count: () => Promise<number>) => Promise<number> {
  const counts = new VersionedCache<number>(name, 500)
  return (version, key, count) => counts.get(version, key, count)
}
