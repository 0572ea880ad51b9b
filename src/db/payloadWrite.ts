import { engine } from './engine'
import { retryTransient } from './transientRetry'

/**
 * A Payload Local API write (create, update, delete, updateGlobal) made by the service outside
 * any other transaction, retried whole on the running engine's transient failures. Writes
 * inside a Payload operation (given its `req`) belong to that operation's transaction, which
 * its caller retries. test/db/payloadWrites.test.ts finds every call that forgets this.
 */
export function payloadWrite<T>(write: () => Promise<T>): Promise<T> {
  return retryTransient(write, (err) => engine().isTransient(err))
}
