/**
 * The longest loop delay and the main thread's CPU inside it (src/platform/loopHold), as /metrics
 * reports them: a loop held by code shows its delay with the CPU spent in it; a thread that waits
 * off its core (here Atomics.wait, as a process the machine descheduled) shows the delay without
 * it. Held by what each kind of wait spends, counted in CPU time, not by a wall-clock bound.
 */
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

  it('a thread off its core: the same delay, without the CPU', async () => {
    const hold = await holdOver(() => asleep(120))
    expect(hold.delayMs).toBeGreaterThanOrEqual(110)
    // Asleep for 120 ms of it: at most what the timer's own turns spent around the wait.
    expect(hold.cpuInDelayMs).toBeLessThan(hold.delayMs - 100)
  })

  it('/metrics reports both, and a read starts a new span', async () => {
    await holdOver(() => undefined)
    spin(80)
    await new Promise((resolve) => setTimeout(resolve, 25))
    const text = await registry.metrics()
    const delay = Number(/^nodejs_eventloop_delay_longest_seconds (\S+)$/m.exec(text)?.[1])
    const cpu = Number(/^nodejs_eventloop_delay_longest_cpu_seconds (\S+)$/m.exec(text)?.[1])
    expect(delay).toBeGreaterThanOrEqual(0.07)
    expect(cpu).toBeGreaterThanOrEqual(0.08)
    expect(cpu).toBeLessThanOrEqual(delay + 0.015)
    // A read takes the span: the next starts empty.
    takeLoopHold()
    expect(takeLoopHold()).toEqual({ delayMs: 0, cpuInDelayMs: 0 })
  })
})
