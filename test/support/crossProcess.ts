/**
 * What a test may expect of another process's write, on either engine (docs/testing.md,
 * *Across processes*): it shows here within a bound, never at once. SQLite's feed reads the
 * database's counters after each write and every 10 ms; MongoDB's is its change stream, whose
 * delivery takes a few milliseconds on a quiet server and up to ~2 s on a busy replica set. And on
 * MongoDB a process's own write comes back through its own change stream moments after its
 * commit, moving the domain a second time (an extra invalidation, not a wrong answer): a test
 * that counts cache misses or record reads starts counting once that echo has come.
 */
import type { Payload } from 'payload'

import { generation, type Domain } from '../../src/db/freshness'
import { getConfig } from '../../src/platform/config'

/** The run's engine, from the configuration (DATABASE_HOST configures MongoDB as well as a mongodb:// URI). */
export const onMongo = (): boolean => getConfig().database.engine === 'mongodb'

/** How soon another process's write must show here. */
export const crossProcessBoundMs = (): number => (onMongo() ? 5_000 : 1_000)

/** Reads until `done` holds of what was read, for at most `ms`; the last value read either way. */
export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, ms = crossProcessBoundMs()): Promise<T> {
  const deadline = Date.now() + ms
  let value = await read()
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    value = await read()
  }
  return value
}

/**
 * MongoDB: once the domains' generations have held still for `quietMs` (this process's own
 * writes have come back through its change stream), at most `ms`. SQLite: at once (its own
 * writes move the counters it reads, once).
 */
export async function ownWritesEchoed(payload: Payload, domains: readonly Domain[], quietMs = 300, ms = 5_000): Promise<void> {
  if (!onMongo()) return
  const now = () => domains.map((d) => generation(payload, d)).join('|')
  const deadline = Date.now() + ms
  let seen = now()
  let since = Date.now()
  while (Date.now() - since < quietMs) {
    if (Date.now() > deadline) throw new Error(`the ${domains.join(', ')} generations kept moving for ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const current = now()
    if (current !== seen) [seen, since] = [current, Date.now()]
  }
}
