/**
 * The one retry of transient write failures. MongoDB aborts a transaction that met a
 * concurrent one (WriteConflict, labelled TransientTransactionError); running the whole write
 * again is then safe. Every transaction the service starts (src/db/mongo/transaction.ts) and
 * every Payload Local API write it makes (./payloadWrite.ts) goes through here; Payload itself
 * aborts and rethrows on such an error. An unknown commit result is not transient: only the
 * commit is sent again (src/db/mongo/commit.ts), never the whole write, which could apply it twice.
 * SQLite never fails this way (writers queue), so nothing is retried there.
 *
 * The budget is time, not a count: writers that keep meeting each other (a burst of saves to one
 * list, a test suite's concurrent writers on a real replica set) retry for up to RETRY_BUDGET_MS,
 * jittered, so they spread out instead of giving up after five quick tries (~0.5 s).
 */
/** Attempts of an unknown commit result's re-sent commit (./mongo/commit.ts). */
export const MAX_ATTEMPTS = 5
/** How long a transient failure is retried, from the first attempt. */
export const RETRY_BUDGET_MS = 1_500
const BASE_DELAY_MS = 10
const MAX_DELAY_MS = 250

/** The wait before attempt `attempt + 1` (1-based `attempt`): exponential, capped, jittered. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The clock a retry reads and waits on (a test's own, to count attempts without waiting). */
export type RetryClock = { now(): number; sleep(ms: number): Promise<void>; random(): number }
const realClock: RetryClock = { now: () => performance.now(), sleep, random: Math.random }

/** Runs `write`, again after a transient failure, while the next attempt would start within RETRY_BUDGET_MS of the first. */
export async function retryTransient<T>(write: () => Promise<T>, isTransient: (err: unknown) => boolean, clock: RetryClock = realClock): Promise<T> {
  const started = clock.now()
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (err) {
      const wait = backoffMs(attempt, clock.random)
      if (!isTransient(err) || clock.now() - started + wait > RETRY_BUDGET_MS) throw err
      await clock.sleep(wait)
    }
  }
}
