/**
 * Cache freshness, paid per write instead of per read. Every cached value is keyed on its
 * domain's generation (src/db/versionDomains): a number in this process's memory, read with no
 * database round trip. The engine's change feed (src/db/ports/changeFeed) moves it when a
 * committed write to the domain becomes visible here, whatever wrote it (this process, another
 * one, the admin panel, a shell): SQLite by its triggers' counters, read after each write of this
 * process and every few milliseconds; MongoDB by a change stream, plus this process's own
 * commits at once. While the feed cannot tell (a lost change stream) every read is a miss.
 *
 * A value is cached under the generation read BEFORE its data was read, and a generation moves
 * only once the change is visible, so a cached value is never older than its generation.
 */
import type { Payload } from 'payload'

import { impliedDomains, type Domain } from './versionDomains'

/** What a change feed reports to the process's generations. */
export type FreshnessSink = {
  /** Committed changes to these domains are visible to this process's reads now. */
  changed(domains: readonly Domain[]): void
  /** The feed can no longer tell: nothing cached may be served until `restored`. */
  lost(): void
  /** The feed tells again; anything may have changed meanwhile. */
  restored(): void
}

export class Generations implements FreshnessSink {
  private readonly counts: Record<Domain, number> = { content: 0, all_content: 0, taxonomy: 0, branding: 0 }
  private blind = true
  private blindReads = 0

  /** The domain's generation: equal strings mean no visible change in between. */
  of(domain: Domain): string {
    // Blind: a key never seen before, so every cache misses and stores nothing reusable.
    return this.blind ? `blind-${++this.blindReads}` : String(this.counts[domain])
  }

  get isBlind(): boolean {
    return this.blind
  }

  changed(domains: readonly Domain[]): void {
    for (const domain of impliedDomains(domains)) this.counts[domain] += 1
  }

  lost(): void {
    this.blind = true
  }

  restored(): void {
    for (const domain of Object.keys(this.counts) as Domain[]) this.counts[domain] += 1
    this.blind = false
  }
}

/** One set of generations per Payload database adapter (a test may run several). */
const byAdapter = new WeakMap<object, Generations>()

export function generationsOf(db: object): Generations {
  let generations = byAdapter.get(db)
  if (!generations) {
    generations = new Generations()
    byAdapter.set(db, generations)
  }
  return generations
}

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

/** Stops the change feed (shutdown); the next generation() starts it again. */
export function stopChangeFeed(payload: Payload): void {
  const stop = feeds.get(payload.db)
  feeds.delete(payload.db)
  stop?.()
}
