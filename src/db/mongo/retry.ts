/**
 * Bounded retries of MongoDB's transient failures: a write conflict between concurrent
 * transactions (code 112, WriteConflict) and errors labelled TransientTransactionError;
 * both mean the transaction was aborted, so running the whole write again is safe.
 * UnknownTransactionCommitResult means the commit may have happened: only the commit is
 * retried (src/db/mongo/transaction), never the whole write, which could apply it twice.
 * Anything else is thrown at once. A few attempts with jittered exponential backoff.
 */
import { hasErrorLabel, serverCode } from './driverErrors'

export const WRITE_CONFLICT = 112
export const TRANSIENT_LABEL = 'TransientTransactionError'
export const UNKNOWN_COMMIT_LABEL = 'UnknownTransactionCommitResult'

export const MAX_ATTEMPTS = 5
const BASE_DELAY_MS = 10
const MAX_DELAY_MS = 250

export function isTransient(err: unknown): boolean {
  return serverCode(err) === WRITE_CONFLICT || hasErrorLabel(err, TRANSIENT_LABEL)
}

/** The wait before attempt `attempt + 1` (1-based `attempt`): exponential, capped, jittered. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export async function withTransientRetry<T>(fn: () => Promise<T>, attempts = MAX_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn()
    } catch (err) {
      if (attempt >= attempts || !isTransient(err)) throw err
      await sleep(backoffMs(attempt))
    }
  }
}
