/**
 * The longest loop delay, the main thread's CPU and its wait for a core inside it, and the longest
 * delay less that wait (src/platform/loopHold), as /metrics reports them: a loop held by code shows
 * its delay with the CPU spent in it, and it is the process's own; a thread asleep in a call (here
 * Atomics.wait) shows the delay without CPU, and it is its own too (blocked by what it called); a
 * thread that was runnable while other processes had the cores shows the wait, and its own part
 * is the delay less that wait. Held by what each kind of wait spends, counted in CPU and scheduler
 * time, not by a wall-clock bound.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import os from 'node:os'

import { describe, expect, it } from 'vitest'

import { type LoopHold, takeLoopHold } from '../src/platform/loopHold'
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

/** The monitor's longest delay over `hold`, a turn of the loop on either side. */
async function holdOver(hold: () => void): Promise<LoopHold> {
  const turn = () => new Promise((resolve) => setTimeout(resolve, 25))
  await turn()
  takeLoopHold()
  hold()
  await turn()
  return takeLoopHold()
}

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
    expect(hold.ownDelayMs).toBeGreaterThanOrEqual(hold.delayMs - hold.coreWaitInDelayMs)
    expect(hold.ownDelayMs).toBeGreaterThanOrEqual(100)
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
      expect(hold.ownDelayMs).toBeGreaterThanOrEqual(hold.delayMs - hold.coreWaitInDelayMs - 0.001)
    } finally {
      for (const child of spinners) child.kill('SIGKILL')
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
    const own = Number(/^nodejs_eventloop_delay_longest_own_seconds (\S+)$/m.exec(text)?.[1])
    expect(delay).toBeGreaterThanOrEqual(0.07)
    expect(cpu).toBeGreaterThanOrEqual(0.08)
    expect(cpu).toBeLessThanOrEqual(delay + 0.015)
    expect(coreWait).toBeGreaterThanOrEqual(0)
    expect(own).toBeGreaterThanOrEqual(delay - coreWait - 0.000001)
    expect(own).toBeLessThanOrEqual(delay)
    // A read takes the span: the next starts empty.
    takeLoopHold()
    expect(takeLoopHold()).toEqual({ delayMs: 0, cpuInDelayMs: 0, coreWaitInDelayMs: 0, ownDelayMs: 0 })
  })
})
