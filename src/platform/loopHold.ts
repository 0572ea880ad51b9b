/**
 * How long the event loop went without turning, and how much of that the process's own code
 * held it: prom-client's `nodejs_eventloop_lag_max_seconds` is wall time, which also counts a
 * process waiting for a core (a busy machine, the load generator beside it) and a virtual
 * machine whose CPU the hypervisor did not run. A timer ticks every TICK_MS; at each tick the wall
 * time since the previous tick is compared with, over the same span, the main thread's CPU time
 * and, on Linux, its time waiting for a core (the kernel's `schedstat`: runnable, not running) and
 * the time the hypervisor took from the CPU it ran on (`/proc/stat`'s steal). Kept since
 * the last read: the longest delay, with the CPU, the wait for a core and the stolen time inside it,
 * and the longest delay less the machine's parts (the wait and the steal), the process's own part
 * (running, or blocked in a call it made). A long delay that is mostly the machine's is not code
 * holding the loop (docs/benchmarks.md, *Measurements behind the code*).
 * Read by /metrics (./metrics), reset on each read as prom-client's lag is.
 */
import { openSync, readSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

const TICK_MS = 10

/** Where a monitor reads its clocks: each a running total in ms. */
export type LoopSources = {
  /** The main thread's CPU time. */
  threadCpuMs(): number
  /** The main thread's time runnable and not running (0 where the kernel does not say). */
  threadCoreWaitMs(): number
  /** The CPU the main thread last ran on, by its index (-1 where the kernel does not say). */
  threadCpuIndex(): number
  /** Each CPU's time the hypervisor ran something else (empty where the kernel does not say). */
  cpuStealMs(): readonly number[]
}

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
 * Reads a kernel file from its start into a buffer kept open (~1-10 µs), as text up to the first
 * `until` (its line's end; all that was read without one); undefined where it cannot be opened.
 */
function procReader(file: string, bytes: number, until?: string): (() => string) | undefined {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return undefined
  }
  const buf = Buffer.alloc(bytes)
  return () => {
    try {
      const read = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0))
      const end = until === undefined ? -1 : read.indexOf(until)
      return read.toString('latin1', 0, end >= 0 ? end + 1 : read.length)
    } catch {
      return ''
    }
  }
}

/**
 * The main thread's time waiting for a core so far, ms: the second field of its
 * `/proc/thread-self/schedstat` (opened once, from the main thread). 0 where there is no such file
 * (not Linux, or no scheduler statistics): every delay is then the process's own.
 */
const threadCoreWaitMs: () => number = (() => {
  const read = procReader('/proc/thread-self/schedstat', 96)
  return read ? () => Number(read().split(' ')[1]) / 1e6 || 0 : () => 0
})()

/**
 * The CPU the main thread last ran on: the 39th field of its `/proc/thread-self/stat` (the 36th after
 * the command's closing parenthesis, which may itself hold spaces). -1 where there is no such file.
 */
const threadCpuIndex: () => number = (() => {
  const read = procReader('/proc/thread-self/stat', 512)
  if (!read) return () => -1
  return () => {
    const text = read()
    const cpu = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[36])
    return Number.isInteger(cpu) ? cpu : -1
  }
})()

/** Linux reports /proc/stat in USER_HZ ticks, fixed at 100 a second for user space on every architecture it runs. */
const MS_PER_USER_TICK = 10

/**
 * Each CPU's stolen time in ms from `/proc/stat`'s text: the eighth figure of every `cpuN` line (a
 * virtual CPU's time the hypervisor ran something else; 0 on bare metal). The aggregate `cpu` line
 * and a line cut off at the end of `text` are left out.
 */
export function parseCpuSteal(text: string): number[] {
  const steal: number[] = []
  let start = 0
  for (let end = text.indexOf('\n'); end >= 0; start = end + 1, end = text.indexOf('\n', start)) {
    if (!text.startsWith('cpu', start)) break // the per-CPU lines come first, together
    const code = text.charCodeAt(start + 3)
    if (code < 48 || code > 57) continue // `cpu ` is the sum of them
    const fields = text.slice(start, end).split(' ')
    steal.push(Number(fields[8]) * MS_PER_USER_TICK || 0)
  }
  return steal
}

/**
 * Each CPU's stolen time so far (`/proc/stat`, its first 8 KB: the per-CPU lines of ~90 CPUs), made
 * text only up to the interrupt counts that follow them (a few hundred bytes a tick, not 8 KB).
 */
const cpuStealMs: () => readonly number[] = (() => {
  const read = procReader('/proc/stat', 8192, '\nintr ')
  return read ? () => parseCpuSteal(read()) : () => []
})()

export type LoopHold = {
  /** The longest delay past a tick's due time since the last read, ms of wall time. */
  delayMs: number
  /** The main thread's CPU time within that delay's span, ms: at most the delay plus one tick. */
  cpuInDelayMs: number
  /** The main thread's time waiting for a core within that delay's span, ms (0 off Linux). */
  coreWaitInDelayMs: number
  /**
   * The time the hypervisor took from the main thread's CPU within that delay's span, ms: the steal
   * of the CPU it ran on at the span's start or end, whichever lost more (a task on a stopped virtual
   * CPU stays on it), at most the delay; 0 on bare metal and off Linux. Counted in the kernel's 10 ms
   * ticks.
   */
  stolenInDelayMs: number
  /**
   * The longest delay less its wait for a core and its stolen time since the last read, ms: the
   * process's own part (running, or blocked in a call), whichever span it came from. The machine's
   * parts are read over the span, one tick longer than its delay, so this is the own part to within
   * a tick.
   */
  ownDelayMs: number
}

const NONE: LoopHold = { delayMs: 0, cpuInDelayMs: 0, coreWaitInDelayMs: 0, stolenInDelayMs: 0, ownDelayMs: 0 }

/** How far CPU `cpu`'s counter moved between two readings of them all (0 for a CPU not in both). */
function gainOf(cpu: number, before: readonly number[], after: readonly number[]): number {
  return cpu >= 0 && cpu < before.length && cpu < after.length ? after[cpu]! - before[cpu]! : 0
}

/** A loop's delays and what they were made of, kept since the last `take()`. */
export class LoopMonitor {
  private lastWall = performance.now()
  private lastCpu: number
  private lastWait: number
  private lastSteal: readonly number[]
  private lastCpuIndex: number
  private longest: LoopHold = NONE
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly sources: LoopSources) {
    this.lastCpu = sources.threadCpuMs()
    this.lastWait = sources.threadCoreWaitMs()
    this.lastSteal = sources.cpuStealMs()
    this.lastCpuIndex = sources.threadCpuIndex()
  }

  /** Ticks every TICK_MS without keeping the process alive. */
  start(): this {
    this.timer ??= setInterval(() => this.tick(), TICK_MS).unref()
    return this
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  private tick(): void {
    const wall = performance.now()
    const cpu = this.sources.threadCpuMs()
    const wait = this.sources.threadCoreWaitMs()
    const steal = this.sources.cpuStealMs()
    const cpuIndex = this.sources.threadCpuIndex()
    const delayMs = wall - this.lastWall - TICK_MS
    const coreWaitMs = wait - this.lastWait
    const stolenFromThread = Math.max(gainOf(this.lastCpuIndex, this.lastSteal, steal), gainOf(cpuIndex, this.lastSteal, steal))
    const stolenMs = Math.max(0, Math.min(delayMs, stolenFromThread))
    const ownDelayMs = Math.max(0, delayMs - coreWaitMs - stolenMs)
    const { longest } = this
    if (delayMs > longest.delayMs) {
      this.longest = { delayMs, cpuInDelayMs: cpu - this.lastCpu, coreWaitInDelayMs: coreWaitMs, stolenInDelayMs: stolenMs, ownDelayMs: Math.max(ownDelayMs, longest.ownDelayMs) }
    } else if (ownDelayMs > longest.ownDelayMs) {
      this.longest = { ...longest, ownDelayMs }
    }
    this.lastWall = wall
    this.lastCpu = cpu
    this.lastWait = wait
    this.lastSteal = steal
    this.lastCpuIndex = cpuIndex
  }

  /** The longest delay since the previous call, the CPU and the machine's parts in it, and the longest own delay; starts a new span. */
  take(): LoopHold {
    const taken = this.longest
    this.longest = NONE
    return taken
  }
}

/** This process's clocks: the main thread's (read from the thread that loads this module) and the machine's. */
export const processSources: LoopSources = { threadCpuMs, threadCoreWaitMs, threadCpuIndex, cpuStealMs }

const serving = new LoopMonitor(processSources).start()

/** The serving loop's longest delay since the previous call (see LoopMonitor.take). */
export function takeLoopHold(): LoopHold {
  return serving.take()
}
