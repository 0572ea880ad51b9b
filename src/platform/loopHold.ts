/**
 * How long the event loop went without turning, and how much of that the process's own code
 * held it: prom-client's `nodejs_eventloop_lag_max_seconds` is wall time, which also counts a
 * process waiting for a core (a busy machine, the load generator beside it). A timer ticks every
 * TICK_MS; at each tick the wall time since the previous tick is compared with the main thread's
 * CPU time and, on Linux, its time waiting for a core (the kernel's `schedstat`: runnable, not
 * running) over the same span. Kept since the last read: the longest delay, with the CPU and the
 * wait for a core inside it, and the longest delay less its wait for a core, the process's own
 * part (running, or blocked in a call it made). A long delay that is mostly a wait for a core is
 * the machine's, not code holding the loop (docs/benchmarks.md, *Measurements behind the code*).
 * Read by /metrics (./metrics), reset on each read as prom-client's lag is.
 */
import { openSync, readSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

const TICK_MS = 10

/** The main thread's CPU time in ms (Node 23.9+); the process's on older Nodes, which counts helper threads too. */
const threadCpuMs: () => number = (() => {
  const threadUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage
  const read = typeof threadUsage === 'function' ? () => threadUsage.call(process) : () => process.cpuUsage()
  return () => {
    const { user, system } = read()
    return (user + system) / 1000
  }
})()

/**
 * The main thread's time waiting for a core so far, ms: the second field of its
 * `/proc/thread-self/schedstat` (opened once, from the main thread, and read again at offset 0:
 * ~1 µs). 0 where there is no such file (not Linux, or no scheduler statistics): every delay is
 * then the process's own.
 */
const threadWaitMs: () => number = (() => {
  let fd: number
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r')
  } catch {
    return () => 0
  }
  const buf = Buffer.alloc(96)
  return () => {
    try {
      const text = buf.toString('latin1', 0, readSync(fd, buf, 0, buf.length, 0))
      return Number(text.split(' ')[1]) / 1e6 || 0
    } catch {
      return 0
    }
  }
})()

export type LoopHold = {
  /** The longest delay past a tick's due time since the last read, ms of wall time. */
  delayMs: number
  /** The main thread's CPU time within that delay's span, ms: at most the delay plus one tick. */
  cpuInDelayMs: number
  /** The main thread's time waiting for a core within that delay's span, ms (0 off Linux). */
  coreWaitInDelayMs: number
  /**
   * The longest delay less its wait for a core since the last read, ms: the process's own part
   * (running, or blocked in a call), whichever span it came from. The wait is read over the span,
   * one tick longer than its delay, so this is the own part to within a tick.
   */
  ownDelayMs: number
}

const NONE: LoopHold = { delayMs: 0, cpuInDelayMs: 0, coreWaitInDelayMs: 0, ownDelayMs: 0 }
let lastWall = performance.now()
let lastCpu = threadCpuMs()
let lastWait = threadWaitMs()
let longest: LoopHold = NONE

setInterval(() => {
  const wall = performance.now()
  const cpu = threadCpuMs()
  const wait = threadWaitMs()
  const delayMs = wall - lastWall - TICK_MS
  const coreWaitMs = wait - lastWait
  const ownDelayMs = Math.max(0, delayMs - coreWaitMs)
  if (delayMs > longest.delayMs || ownDelayMs > longest.ownDelayMs) {
    longest =
      delayMs > longest.delayMs
        ? { delayMs, cpuInDelayMs: cpu - lastCpu, coreWaitInDelayMs: coreWaitMs, ownDelayMs: Math.max(ownDelayMs, longest.ownDelayMs) }
        : { ...longest, ownDelayMs }
  }
  lastWall = wall
  lastCpu = cpu
  lastWait = wait
}, TICK_MS).unref()

/** The longest delay since the previous call, the CPU and the wait for a core in it, and the longest own delay; starts a new span. */
export function takeLoopHold(): LoopHold {
  const taken = longest
  longest = NONE
  return taken
}
