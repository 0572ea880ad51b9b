/**
 * Payload's SQLite saves run as chains of synchronous statements, each continued by a promise
 * with no real I/O in between, so one save (a submission: tens of statements, its hooks' reads,
 * the commit) held the event loop for tens of milliseconds at once (docs/benchmarks.md, *Measurements behind the code*), and every request on the worker waited
 * behind it. Before each statement, a chain that has run for more than SLICE_MS in this turn of
 * the loop waits for the next one (setImmediate): timers and other requests run in between, and
 * no save blocks for much more than a slice. A save takes a few turns longer under load; nothing
 * else changes (the write gate and the transaction stay held across the wait). The content
 * store's page reads take the same turns (./contentStore): after a write, the searches that many
 * connections ask at once are ranked again, each a fraction of a millisecond to a few. Writes
 * and reads have a slice each per turn (SliceKind, below).
 */
const SLICE_MS = 8

/**
 * A write's statements (a Payload transaction: its write gate held, every other write of the
 * process queued behind it) have a slice of their own in each turn, after the reads' slice: a
 * save beside the many page reads that follow a write (every hot search ranked again) went last,
 * one statement a turn behind all of them (docs/benchmarks.md, *Measurements behind the code*). A
 * turn runs at most a slice of reads and a slice of writes.
 */
export type SliceKind = 'read' | 'write'

let turnStarted = 0
let writesStarted: number | undefined
let inTurn = false

/** Undefined while this turn has time left for `kind`; else a promise of the next turn. */
export function nextSlice(kind: SliceKind = 'read'): Promise<void> | undefined {
  const now = performance.now()
  if (!inTurn) {
    inTurn = true
    turnStarted = now
    writesStarted = undefined
    // Runs once the current phase's callbacks are done: the next statement starts a new slice.
    setImmediate(() => {
      inTurn = false
    })
  }
  if (kind === 'write') writesStarted ??= now
  if (now - (kind === 'write' ? writesStarted! : turnStarted) < SLICE_MS) return undefined
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * `run` in a turn with time left for its kind: at once when this one has, else in a later one,
 * asked again once woken (many waiters wake in the same turn; those past its slice wait again).
 */
export function inSlices<T>(run: () => Promise<T>, kind: SliceKind = 'read'): Promise<T> {
  const wait = nextSlice(kind)
  return wait ? wait.then(() => inSlices(run, kind)) : run()
}
