/**
 * MongoDB's transient failures: a write conflict between concurrent transactions (code 112,
 * WriteConflict) and errors labelled TransientTransactionError; both mean the transaction was
 * aborted, so running the whole write again is safe (src/db/transientRetry.ts does).
 * UnknownTransactionCommitResult means the commit may have happened: only the commit is
 * retried (./commit.ts).
 */
import { hasErrorLabel, serverCode } from './driverErrors'

export const WRITE_CONFLICT = 112
export const TRANSIENT_LABEL = 'TransientTransactionError'
export const UNKNOWN_COMMIT_LABEL = 'UnknownTransactionCommitResult'

export function isTransient(err: unknown): boolean {
  return serverCode(err) === WRITE_CONFLICT || hasErrorLabel(err, TRANSIENT_LABEL)
}

export const RETRYABLE_WRITE_LABEL = 'RetryableWriteError'

/**
 * The codes of a failover, a step-down or a lost connection (the retryable reads' and writes'
 * sets of the drivers' specification, as mongodb 6.20 lists them in lib/error.js).
 */
const FAILOVER_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436])

/**
 * A plain (non-transaction) read or write that met a failover or a lost connection: for writes
 * whose filter makes running them again harmless (a tag rename's batches), which the driver does
 * not retry itself (an updateMany is not a retryable write).
 */
export function isRetryableBatchError(err: unknown): boolean {
  return isTransient(err) || hasErrorLabel(err, RETRYABLE_WRITE_LABEL) || FAILOVER_CODES.has(serverCode(err) ?? 0)
}
