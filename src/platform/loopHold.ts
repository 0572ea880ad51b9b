/**
 * How long the event loop went without turning, and how much of that the process's own code
 * held it: prom-client's `nodejs_eventloop_lag_max_seconds` is wall time, which also counts a
 * process waiting for a core (a busy machine, the load generator beside it). A timer ticks every
 * TICK_MS; at each tick the wall time since the previous tick and the main thread's CPU time over
 * the same span are compared. The longest delay since the last read is kept with the CPU the thread
 * spent inside it: a long delay with little CPU in it is a process off its core, not code
 * holding the loop (docs/benchmarks.md, *Measurements behind the code*). Read by /metrics (./metrics), reset on each read as prom-client's lag is.
 */
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

export type LoopHold = {
  /** The longest delay past a tick's due time since the last read, ms of wall time. */
  delayMs: number
  /** The main thread's CPU time within that delay's span, ms: at most the delay plus one tick. */
  cpuInDelayMs: number
}

let lastWall = performance.now()
let lastCpu = threadCpuMs()
let longest: LoopHold = { delayMs: 0, cpuInDelayMs: 0 }

setInterval(() => {
  const wall = performance.now()
  const cpu = threadCpuMs()
  const delayMs = wall - lastWall - TICK_MS
  if (delayMs > longest.delayMs) longest = { delayMs, cpuInDelayMs: cpu - lastCpu }
  lastWall = wall
  lastCpu = cpu
}, TICK_MS).unref()

/** The longest delay since the previous call, and the CPU in it; starts a new span. */
export function takeLoopHold(): LoopHold {
  const taken = longest
  longest = { delayMs: 0, cpuInDelayMs: 0 }
  return taken
}
