/**
 * The one retry of transient write failures. MongoDB aborts a transaction that met a
 * concurrent one (WriteConflict, labelled TransientTransactionError); running the whole write
 * again is then safe. Every transaction the service starts (src/db/mongo/transaction.ts) and
 * every Payload Local API write it makes (./payloadWrite.ts) goes through here; Payload itself
 * aborts and rethrows on such an error. An unknown commit result is not transient: only the
 * commit is sent again (src/db/mongo/commit.ts), never the whole write, which could apply it twice.
 * SQLite never fails this way (writers queue), so nothing is retried there.
 */
export const MAX_ATTEMPTS = 5
const BASE_DELAY_MS = 10
const MAX_DELAY_MS = 250

/** The wait before attempt `attempt + 1` (1-based `attempt`): exponential, capped, jittered. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Runs `write`, again after a transient failure, at most MAX_ATTEMPTS times in all. */
export async function retryTransient<T>(write: () => Promise<T>, isTransient: (err: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !isTransient(err)) throw err
      await sleep(backoffMs(attempt))
    }
  }
}
