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

/**
 * The turn the statements run in: opened by the first statement asked for in a turn of the loop,
 * closed in that turn's check phase (setImmediate) when no statement waits. When some do, they
 * start the next slice from a check phase, and that turn stays open until the check phase after:
 * the requests the next poll phase takes share its slice. A turn opened outside a check phase
 * (the first statements after a quiet moment) hands its waiters to the next loop iteration's
 * check phase: woken in its own, they began a second slice in the same iteration, two slices of
 * each kind before a timer could run (test/db/loopSlices.test.ts).
 */
type Turn = { started: number; writesStarted: number | undefined; openedInCheck: boolean }

let turn: Turn | undefined
let waiting: (() => void)[] = []

function open(now: number, inCheck: boolean): Turn {
  const opened: Turn = { started: now, writesStarted: undefined, openedInCheck: inCheck }
  turn = opened
  // From a poll (or timers) phase: this iteration's check phase; from a check phase: the next one's.
  setImmediate(close)
  return opened
}

function close(): void {
  if (waiting.length === 0) {
    turn = undefined
    return
  }
  if (!turn!.openedInCheck) {
    // Its waiters waited out this iteration's slice: they start the next iteration's.
    turn!.openedInCheck = true
    setImmediate(close)
    return
  }
  open(performance.now(), true)
  const woken = waiting
  waiting = []
  for (const wake of woken) wake()
}

/** Undefined while this turn has time left for `kind`; else a promise of a later turn. */
export function nextSlice(kind: SliceKind = 'read'): Promise<void> | undefined {
  const now = performance.now()
  const current = turn ?? open(now, false)
  if (kind === 'write') current.writesStarted ??= now
  if (now - (kind === 'write' ? current.writesStarted! : current.started) < SLICE_MS) return undefined
  return new Promise((resolve) => waiting.push(resolve))
}

/**
 * `run` in a turn with time left for its kind: at once when this one has, else in a later one,
 * asked again once woken (many waiters wake in the same turn; those past its slice wait again).
 */
export function inSlices<T>(run: () => Promise<T>, kind: SliceKind = 'read'): Promise<T> {
  const wait = nextSlice(kind)
  return wait ? wait.then(() => inSlices(run, kind)) : run()
}
