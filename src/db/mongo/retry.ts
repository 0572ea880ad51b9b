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
