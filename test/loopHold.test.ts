/**
 * The longest loop delay, the main thread's CPU and its wait for a core inside it, and the longest
 * delay less that wait (src/platform/loopHold), as /metrics reports them: a loop held by code shows
 * its delay with the CPU spent in it, and it is the process's own; a thread asleep in a call (here
 * Atomics.wait) shows the delay without CPU, and it is its own too (blocked by what it called); a
 * thread that was runnable while other processes had the cores shows the wait, and its own part
 * is the delay less that wait; a virtual machine whose CPU the hypervisor took (its steal) shows
 * the stolen time, and its own part is the delay less that too. Held by what each kind of wait
 * spends, counted in CPU and scheduler time, not by a wall-clock bound.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'

import { describe, expect, it } from 'vitest'

import { type LoopHold, LoopMonitor, parseCpuSteal, processSources, takeLoopHold } from '../src/platform/loopHold'
import { registry } from '../src/platform/metrics'

const threadCpuMs = () => {
  const { user, system } = (process as unknown as { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage()
  return (user + system) / 1000
}

/** Holds the thread for `ms` of its own CPU time (a descheduled moment does not count). */
function spin(ms: number): void {
  const until = threadCpuMs() + ms
  while (threadCpuMs() < until);
}

/** Sleeps the thread `ms` without CPU, as a process off its core. */
function asleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** A monitor's longest delay over `hold` (the serving one's by default), a turn of the loop on either side. */
async function holdOver(hold: () => void, take: () => LoopHold = takeLoopHold): Promise<LoopHold> {
  const turn = () => new Promise((resolve) => setTimeout(resolve, 25))
  await turn()
  take()
  hold()
  await turn()
  return take()
}

// This machine's /proc/stat, its first lines (a virtual machine: 17.81 and 17.32 s stolen from its two CPUs).
const PROC_STAT = [
  'cpu  2155917 12238 710628 1399342 8814 0 241937 3513 0 0',
  'cpu0 1042654 6152 353253 740404 2576 0 114912 1781 0 0',
  'cpu1 1113263 6086 357375 658937 6237 0 127024 1732 0 0',
  'intr 123456789 0 9 0 0',
  'ctxt 987654321',
].join('\n')

describe('the loop held, and by whom', () => {
  it('a loop held by code: the delay, and all of its CPU in it', async () => {
    const hold = await holdOver(() => spin(120))
    // 120 ms of CPU is at least 120 ms of wall time: the 10 ms timer at least 110 ms late.
    expect(hold.delayMs).toBeGreaterThanOrEqual(110)
    expect(hold.cpuInDelayMs).toBeGreaterThanOrEqual(120)
    // One thread cannot spend more CPU than the span's wall time.
    expect(hold.cpuInDelayMs).toBeLessThanOrEqual(hold.delayMs + 10 + 5)
  })

  it('a thread asleep in a call: the same delay, without the CPU, and all of it its own', async () => {
    const hold = await holdOver(() => asleep(120))
    expect(hold.delayMs).toBeGreaterThanOrEqual(110)
    // Asleep for 120 ms of it: at most what the timer's own turns spent around the wait.
    expect(hold.cpuInDelayMs).toBeLessThan(hold.delayMs - 100)
    // Asleep is not waiting for a core: the delay is the process's own (a blocked call is code's doing).
    // (Less any moment the hypervisor took the CPU, which is the machine's.)
    expect(hold.ownDelayMs).toBeGreaterThanOrEqual(hold.delayMs - hold.coreWaitInDelayMs - hold.stolenInDelayMs)
    expect(hold.ownDelayMs + hold.stolenInDelayMs).toBeGreaterThanOrEqual(100)
  })

  // Linux's scheduler statistics; elsewhere every delay counts as the process's own.
  it.runIf(existsSync('/proc/thread-self/schedstat'))('a thread runnable while others hold every core: its wait is counted, and its own part is the delay less it', async () => {
    // Twice as many spinning processes as cores: the main thread, spinning too, gets its share of
    // the cores and waits its turn for the rest (the CPU it spends is counted, whatever the wall time).
    const spinners: ChildProcess[] = Array.from({ length: 2 * os.availableParallelism() }, () =>
      spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }),
    )
    try {
      await new Promise((resolve) => setTimeout(resolve, 200))
      const hold = await holdOver(() => spin(150))
      expect(hold.cpuInDelayMs).toBeGreaterThanOrEqual(150)
      // Some of its wall time it was runnable and not running.
      expect(hold.coreWaitInDelayMs).toBeGreaterThan(10)
      // A thread's time in a span is running, waiting for a core, or asleep: no part counted twice.
      expect(hold.cpuInDelayMs + hold.coreWaitInDelayMs).toBeLessThanOrEqual(hold.delayMs + 10 + 5)
      expect(hold.ownDelayMs).toBeGreaterThanOrEqual(hold.delayMs - hold.coreWaitInDelayMs - hold.stolenInDelayMs - 0.001)
    } finally {
      for (const child of spinners) child.kill('SIGKILL')
    }
  })

  it("the hypervisor's steal: each CPU's, from /proc/stat's per-CPU lines, the sum line left out", () => {
    expect(parseCpuSteal(PROC_STAT)).toEqual([17810, 17320])
    // A line cut off by the read's end is left out, not read as a smaller number.
    expect(parseCpuSteal(PROC_STAT.slice(0, PROC_STAT.indexOf('cpu1') + 40))).toEqual([17810])
    expect(parseCpuSteal('')).toEqual([])
    // The thread's own CPU, by index, one of this machine's.
    const cpu = processSources.threadCpuIndex()
    if (existsSync('/proc/thread-self/stat')) expect(cpu).toBeGreaterThanOrEqual(0)
    expect(cpu).toBeLessThan(os.cpus().length)
    if (existsSync('/proc/stat')) {
      expect(parseCpuSteal(readFileSync('/proc/stat', 'latin1'))).toHaveLength(os.cpus().length)
      // The monitor's own reading (its text cut before the interrupt counts): one running total per CPU.
      const before = processSources.cpuStealMs()
      const after = processSources.cpuStealMs()
      expect(before).toHaveLength(os.cpus().length)
      after.forEach((ms, cpu) => expect(ms).toBeGreaterThanOrEqual(before[cpu]!))
    }
  })

  it("the thread's CPU taken by the hypervisor: its stolen time is counted, and the own part is the delay less it", async () => {
    // The thread runs on CPU 1. Every span but the one under test has all of its time stolen, so
    // none of them has an own part; and the span is read in the tick that ends it, before any
    // other: a busy machine's late ticks (one of 191 ms in CI) cannot stand in for the one measured.
    const steal = [0, 0]
    let next: { cpu: number; ms: number; ended: () => void } | undefined
    const monitor = new LoopMonitor({
      threadCpuMs: () => 0,
      threadCoreWaitMs: () => 0,
      threadCpuIndex: () => 1,
      cpuStealMs: () => {
        if (next) (steal[next.cpu]! += next.ms), next.ended()
        else steal[1]! += 60_000
        next = undefined
        return [...steal]
      },
    }).start()
    /** The monitor's delay over a sleep of `sleepMs` while CPU `cpu` has `stolenMs` taken: that span alone. */
    const stolenDuring = async (cpu: number, stolenMs: number, sleepMs: number) => {
      await new Promise((resolve) => setTimeout(resolve, 25))
      monitor.take()
      // Resolved inside the tick after the sleep; read as soon as that tick has run, before another.
      const ended = new Promise<void>((resolve) => (next = { cpu, ms: stolenMs, ended: resolve }))
      asleep(sleepMs)
      await ended
      return monitor.take()
    }
    try {
      // Another CPU's steal is not this thread's: the delay stays its own.
      const elsewhere = await stolenDuring(0, 100, 120)
      expect(elsewhere.delayMs).toBeGreaterThanOrEqual(110)
      expect(elsewhere.stolenInDelayMs).toBe(0)
      expect(elsewhere.ownDelayMs).toBe(elsewhere.delayMs)
      // As a virtual CPU the host did not run for 100 ms: the thread is neither running nor waiting for a core in the guest.
      const hold = await stolenDuring(1, 100, 120)
      expect(hold.delayMs).toBeGreaterThanOrEqual(110)
      expect(hold.stolenInDelayMs).toBe(100)
      expect(hold.ownDelayMs).toBeCloseTo(hold.delayMs - 100, 6)
      // The steal is capped at the delay: a span cannot lose more than its own length, and none of it is its own.
      const capped = await stolenDuring(1, 5000, 60)
      expect(capped.delayMs).toBeGreaterThanOrEqual(50)
      expect(capped.stolenInDelayMs).toBe(capped.delayMs)
      expect(capped.ownDelayMs).toBe(0)
    } finally {
      monitor.stop()
    }
  })

  it('/metrics reports both, and a read starts a new span', async () => {
    await holdOver(() => undefined)
    spin(80)
    await new Promise((resolve) => setTimeout(resolve, 25))
    const text = await registry.metrics()
    const delay = Number(/^nodejs_eventloop_delay_longest_seconds (\S+)$/m.exec(text)?.[1])
    const cpu = Number(/^nodejs_eventloop_delay_longest_cpu_seconds (\S+)$/m.exec(text)?.[1])
    const coreWait = Number(/^nodejs_eventloop_delay_longest_core_wait_seconds (\S+)$/m.exec(text)?.[1])
    const stolen = Number(/^nodejs_eventloop_delay_longest_stolen_seconds (\S+)$/m.exec(text)?.[1])
    const own = Number(/^nodejs_eventloop_delay_longest_own_seconds (\S+)$/m.exec(text)?.[1])
    expect(delay).toBeGreaterThanOrEqual(0.07)
    expect(cpu).toBeGreaterThanOrEqual(0.08)
    expect(cpu).toBeLessThanOrEqual(delay + 0.015)
    expect(coreWait).toBeGreaterThanOrEqual(0)
    expect(stolen).toBeGreaterThanOrEqual(0)
    expect(stolen).toBeLessThanOrEqual(delay)
    expect(own).toBeGreaterThanOrEqual(delay - coreWait - stolen - 0.000001)
    expect(own).toBeLessThanOrEqual(delay)
    // A read takes the span: the next starts empty.
    takeLoopHold()
    expect(takeLoopHold()).toEqual({ delayMs: 0, cpuInDelayMs: 0, coreWaitInDelayMs: 0, stolenInDelayMs: 0, ownDelayMs: 0 })
  })
})
