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
 * A write's statements (a Payload transaction: the file's write lock held, every other writer of
 * this process and of the other workers waiting for it) have a slice of their own in each turn:
 * a save beside the many page reads that follow a write (every hot search ranked again) went
 * last, one statement a turn behind all of them (docs/benchmarks.md, *Measurements behind the
 * code*). The writes' slice is the longer and goes first: each turn a save waits out is a turn of
 * reads added to the time the lock is held, and with two workers the other's writes wait for it
 * (docs/benchmarks.md, *Writes first in a turn*). A turn runs at most a slice of writes, then
 * a slice of reads.
 */
const WRITE_SLICE_MS = 16

export type SliceKind = 'read' | 'write'

/**
 * The turn the statements run in: opened by the first statement asked for in a turn of the loop,
 * closed in that turn's check phase (setImmediate) when no statement waits. When some do, they
 * start the next slice from a check phase, and that turn stays open until the check phase after:
 * the requests the next poll phase takes share its slice. A turn opened outside a check phase
 * (the first statements after a quiet moment) hands its waiters to the next loop iteration's
 * check phase: woken in its own, they began a second slice in the same iteration, two slices of
 * each kind before a timer could run (test/db/loopSlices.test.ts). Each kind's slice is counted
 * from its first statement in the turn (`started`).
 */
type Turn = { started: Record<SliceKind, number | undefined>; openedInCheck: boolean }

let turn: Turn | undefined
/** The statements waiting for the next turn, by kind: the writes' are woken first. */
let waiting: Record<SliceKind, (() => void)[]> = { write: [], read: [] }

function open(inCheck: boolean): Turn {
  const opened: Turn = { started: { write: undefined, read: undefined }, openedInCheck: inCheck }
  turn = opened
  // From a poll (or timers) phase: this iteration's check phase; from a check phase: the next one's.
  setImmediate(close)
  return opened
}

function close(): void {
  if (waiting.write.length === 0 && waiting.read.length === 0) {
    turn = undefined
    return
  }
  if (!turn!.openedInCheck) {
    // Its waiters waited out this iteration's slice: they start the next iteration's.
    turn!.openedInCheck = true
    setImmediate(close)
    return
  }
  open(true)
  const woken = waiting
  waiting = { write: [], read: [] }
  // Woken in this order, their statements run in it (each continues in the microtasks after this callback).
  for (const wake of woken.write) wake()
  for (const wake of woken.read) wake()
}

/**
 * Run before each statement asks for its slice. Another thread's news (a log's sync ended,
 * ../db/sqlite/writes/walSync) reaches this one in the loop's poll phase, after the turn it came in:
 * a whole slice of writes and one of reads later when it came at a turn's start. A check here reads it
 * where it already is (memory the threads share), so whatever waits for it goes on between two
 * statements of the turn instead (docs/benchmarks.md, *Hearing a sync between statements*).
 */
const CHECKS = Symbol.for('curation.loopSlices.checks')
/**
 * One set per thread (on its global): a serving process has two copies of this module (the
 * server's and Next's bundle), and a check registered through one must run before the other's
 * statements too.
 */
const checks: Set<() => void> = ((globalThis as { [CHECKS]?: Set<() => void> })[CHECKS] ??= new Set())

/** Runs `check` before every statement until the returned function is called. */
export function beforeEachStatement(check: () => void): () => void {
  checks.add(check)
  return () => checks.delete(check)
}

/** Undefined while this turn has time left for `kind`; else a promise of a later turn. */
export function nextSlice(kind: SliceKind = 'read'): Promise<void> | undefined {
  for (const check of checks) check()
  const now = performance.now()
  const started = ((turn ?? open(false)).started[kind] ??= now)
  if (now - started < (kind === 'write' ? WRITE_SLICE_MS : SLICE_MS)) return undefined
  return new Promise((resolve) => waiting[kind].push(resolve))
}

/**
 * `run` in a turn with time left for its kind: at once when this one has, else in a later one,
 * asked again once woken (many waiters wake in the same turn; those past its slice wait again).
 */
export function inSlices<T>(run: () => Promise<T>, kind: SliceKind = 'read'): Promise<T> {
  const wait = nextSlice(kind)
  return wait ? wait.then(() => inSlices(run, kind)) : run()
}
