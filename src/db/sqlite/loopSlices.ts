/**
 * Payload's SQLite saves run as chains of synchronous statements, each continued by a promise
 * with no real I/O in between, so one save (a submission: tens of statements, its hooks' reads,
 * the commit) held the event loop for 25-40 ms at once, and every request on the worker waited
 * behind it. Before each statement, a chain that has run for more than SLICE_MS in this turn of
 * the loop waits for the next one (setImmediate): timers and other requests run in between, and
 * no save blocks for much more than a slice. A save takes a few turns longer under load; nothing
 * else changes (the write gate and the transaction stay held across the wait). The content
 * store's page reads take the same turns (./contentStore): after a write, the searches that many
 * connections ask at once are ranked again, each a fraction of a millisecond to a few.
 */
const SLICE_MS = 8

let turnStarted = 0
let inTurn = false

/** Undefined while this turn has time left; else a promise of the next turn. */
export function nextSlice(): Promise<void> | undefined {
  const now = performance.now()
  if (!inTurn) {
    inTurn = true
    turnStarted = now
    // Runs once the current phase's callbacks are done: the next statement starts a new slice.
    setImmediate(() => {
      inTurn = false
    })
    return undefined
  }
  if (now - turnStarted < SLICE_MS) return undefined
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * `run` in a turn with time left: at once when this one has, else in a later one, asked again
 * once woken (many waiters wake in the same turn; those past its slice wait again).
 */
export function inSlices<T>(run: () => Promise<T>): Promise<T> {
  const wait = nextSlice()
  return wait ? wait.then(() => inSlices(run)) : run()
}
