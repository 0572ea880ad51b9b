/**
 * Cache freshness, paid per write instead of per read. Every cached value is keyed on its
 * domain's generation (src/db/freshness/versionDomains): a number in this process's memory, read with no
 * database round trip. The engine's change feed (src/db/ports/changeFeed) moves it when a
 * committed write to the domain becomes visible here, whatever wrote it (this process, another
 * one, the admin panel, a shell): SQLite by its triggers' counters, read after each write of this
 * process and every few milliseconds; MongoDB by a change stream, plus this process's own
 * commits at once. While the feed cannot tell (a lost change stream) a generation holds for
 * 50 ms at most, so nothing cached is older than that (BLIND_REUSE_MS).
 *
 * A value is cached under the generation read BEFORE its data was read, and a generation moves
 * only once the change is visible, so a cached value is never older than its generation.
 *
 * Content rows are also marked one by one: a value that shows rows (a page, an item) notes the
 * row clock before its data is read and is stale once one of its rows is marked after it. A
 * write to a public row that leaves every list's membership and order as they were (a thumbnail
 * linked, a slug renamed) moves no public generation, only its row's mark (./versionDomains).
 * A content change reported without its rows marks every row.
 */
import type { Payload } from 'payload'

import { impliedDomains, type Domain } from './versionDomains'

/** What a change feed reports to the process's generations. */
export type FreshnessSink = {
  /**
   * Committed changes to these domains are visible to this process's reads now; `rows`, the
   * content ids they wrote (absent for a content change: every row may have changed).
   */
  changed(domains: readonly Domain[], rows?: readonly string[]): void
  /** The feed can no longer tell: nothing cached may be served until `restored`. */
  lost(): void
  /** The feed tells again; anything may have changed meanwhile. */
  restored(): void
}

/** A cached value's rows: their ids and the row clock the value is known fresh at (noted before its rows were read). */
export type RowStamp = { readonly ids: readonly string[]; clock: number }

/** What a value that shows content rows asks: the row clock now, and later whether it is still fresh. */
export type RowFreshness = {
  clock(): number
  /**
   * True while none of the stamp's rows was marked after its clock; the stamp then moves to now,
   * so the next ask is one comparison until some row is marked again (a cached hit walked its
   * 20 ids on every request after any write otherwise).
   */
  fresh(stamp: RowStamp): boolean
  /**
   * The ids of the rows marked after `clock`, oldest first (an id may repeat); undefined when that
   * cannot be told: every row changed since (a change reported without its rows, a lost feed),
   * the marks since were forgotten, or the feed is blind now (another process's writes unseen).
   * A value can then be carried to now by reading only these rows.
   */
  markedSince(clock: number): readonly string[] | undefined
}

/** How long a generation holds while the feed cannot tell (the stated cross-process bound). */
export const BLIND_REUSE_MS = 50

/** Row marks kept; the oldest are forgotten past this (a value older than a forgotten mark is stale). */
const MAX_ROW_MARKS = 100_000
/** Marks kept in order for markedSince; a value older than the oldest is read again whole. */
const MAX_RECENT_MARKS = 4_096

export class Generations implements FreshnessSink, RowFreshness {
  private readonly counts: Record<Domain, number> = { content: 0, all_content: 0, taxonomy: 0, branding: 0, access: 0 }
  private blind = true
  /** Moves once per marked row; marks[id] is the clock of the row's last change seen. */
  private rowClock = 0
  private readonly marks = new Map<string, number>()
  /** A value noted before this clock is stale (every row changed then, or its mark was forgotten). */
  private floor = 0
  /** The latest marks in order: recentIds[i] was marked at recentAt[i]. */
  private recentIds: string[] = []
  private recentAt: number[] = []

  /** The domain's generation: equal strings mean no visible change in between. */
  of(domain: Domain): string {
    // Blind: a key that holds for BLIND_REUSE_MS at most, so a cached value is never older than
    // that (another process's write is unseen for no longer), and a busy process does not run
    // every read of every caller again (a herd of recomputation at a million items); this
    // process's own writes still move it.
    return this.blind ? `blind-${Math.floor(performance.now() / BLIND_REUSE_MS)}-${this.counts[domain]}` : String(this.counts[domain])
  }

  get isBlind(): boolean {
    return this.blind
  }

  changed(domains: readonly Domain[], rows?: readonly string[]): void {
    for (const domain of impliedDomains(domains)) this.counts[domain] += 1
    if (rows) for (const id of rows) this.mark(id)
    else if (domains.includes('content') || domains.includes('all_content')) this.everyRowChanged()
  }

  lost(): void {
    this.blind = true
    this.everyRowChanged()
  }

  restored(): void {
    for (const domain of Object.keys(this.counts) as Domain[]) this.counts[domain] += 1
    this.everyRowChanged()
    this.blind = false
  }

  clock(): number {
    return this.rowClock
  }

  fresh(stamp: RowStamp): boolean {
    // While blind, the generation's short life bounds a value's age; rows still mark as they change.
    if (stamp.clock === this.rowClock) return true
    if (stamp.clock < this.floor) return false
    for (const id of stamp.ids) if ((this.marks.get(id) ?? 0) > stamp.clock) return false
    stamp.clock = this.rowClock
    return true
  }

  markedSince(clock: number): readonly string[] | undefined {
    if (this.blind || clock < this.floor || clock > this.rowClock) return undefined
    if (clock === this.rowClock) return []
    // The first kept mark after `clock`; the one before it must be at or before `clock`, else marks between were let go.
    let lo = 0
    let hi = this.recentAt.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.recentAt[mid]! <= clock) lo = mid + 1
      else hi = mid
    }
    if (lo === 0 && (this.recentAt[0] ?? Infinity) > clock + 1) return undefined
    return this.recentIds.slice(lo)
  }

  private mark(id: string): void {
    this.marks.delete(id)
    this.marks.set(id, ++this.rowClock)
    this.recentIds.push(id)
    this.recentAt.push(this.rowClock)
    if (this.recentIds.length > MAX_RECENT_MARKS) {
      this.recentIds = this.recentIds.slice(MAX_RECENT_MARKS >> 1)
      this.recentAt = this.recentAt.slice(MAX_RECENT_MARKS >> 1)
    }
    if (this.marks.size > MAX_ROW_MARKS) {
      const [oldest, at] = this.marks.entries().next().value!
      this.marks.delete(oldest)
      this.floor = Math.max(this.floor, at)
    }
  }

  private everyRowChanged(): void {
    this.marks.clear()
    this.recentIds = []
    this.recentAt = []
    this.floor = ++this.rowClock
  }
}

/**
 * State kept per database: one `make()` per Payload database adapter instance (`payload.db`, the key),
 * made at its first ask and let go with it. Generations are per database, so anything kept under
 * one (every cache) is too: two Payload instances in one process (a test may run several) never
 * share a kept value, even when their generations read the same.
 */
export function perDatabase<T>(make: () => T): (db: object) => T {
  const byAdapter = new WeakMap<object, T>()
  return (db) => {
    let kept = byAdapter.get(db)
    if (kept === undefined) byAdapter.set(db, (kept = make()))
    return kept
  }
}

export const generationsOf = perDatabase(() => new Generations())

type StartFeed = (payload: Payload, sink: FreshnessSink) => () => void

/** The running engine's change feed (src/db/ports/changeFeed), set once by src/db/engine.ts. */
let startFeed: StartFeed | undefined
const feeds = new WeakMap<object, () => void>()

export function useChangeFeed(start: StartFeed): void {
  startFeed = start
}

/** The domain's generation for `payload`'s database, the change feed started on first use: a memory read, no round trip. */
export function generation(payload: Payload, domain: Domain): string {
  const generations = generationsOf(payload.db)
  if (!feeds.has(payload.db) && startFeed) feeds.set(payload.db, startFeed(payload, generations))
  return generations.of(domain)
}

/** Content rows' marks for `payload`'s database (the change feed started on first use, as generation() does). */
export function rowFreshness(payload: Payload): RowFreshness {
  generation(payload, 'content')
  return generationsOf(payload.db)
}

/** Stops the change feed (shutdown); the next generation() starts it again. */
export function stopChangeFeed(payload: Payload): void {
  const stop = feeds.get(payload.db)
  feeds.delete(payload.db)
  stop?.()
}
