/**
 * Committing a MongoDB transaction: an UnknownTransactionCommitResult means the commit may or
 * may not have happened; sending the commit again is safe (the server commits once), running
 * the writes again is not. So only the commit is repeated, a bounded number of times.
 */
import type { ClientSession } from 'mongodb'

import { backoffMs, MAX_ATTEMPTS, sleep } from '../transientRetry'
import { hasErrorLabel } from './driverErrors'
import { UNKNOWN_COMMIT_LABEL } from './retry'

export async function commitWithRetry(session: ClientSession): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await session.commitTransaction()
      return
    } catch (err) {
      if (!(attempt < MAX_ATTEMPTS && hasErrorLabel(err, UNKNOWN_COMMIT_LABEL))) throw err
      await sleep(backoffMs(attempt))
    }
  }
}
