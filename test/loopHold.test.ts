/**
 * The longest loop delay and the main thread's CPU inside it (src/platform/loopHold), as /metrics
 * reports them: a loop held by code shows its delay with the CPU spent in it; a thread that waits
 * off its core (here Atomics.wait, as a process the machine descheduled) shows the delay without
 * it. Held by what each kind of wait can and cannot spend, not by a clock bound on the machine.
 */
import { describe, expect, it } from 'vitest'

import { takeLoopHold } from '../src/platform/loopHold'
import { registry } from '../src/platform/metrics'

const turn = () => new Promise((resolve) => setTimeout(resolve, 25))

function busy(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}

function asleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

describe('the loop held, and by whom', () => {
  it('a loop held by code: the delay, and CPU in it', async () => {
    await turn()
    takeLoopHold()
    busy(120)
    await turn()
    const hold = takeLoopHold()
    // 120 ms without a turn: its 10 ms timer at least 110 ms late.
    expect(hold.delayMs).toBeGreaterThanOrEqual(110)
    // The thread ran for (part of) it: a descheduled moment lowers this, nothing raises it past the span.
    expect(hold.cpuInDelayMs).toBeGreaterThan(0)
    expect(hold.cpuInDelayMs).toBeLessThanOrEqual(hold.delayMs + 10 + 5)
  })

  it('a thread off its core: the same delay, without the CPU', async () => {
    await turn()
    takeLoopHold()
    asleep(120)
    await turn()
    const hold = takeLoopHold()
    expect(hold.delayMs).toBeGreaterThanOrEqual(110)
    // Asleep for 120 ms of it: at most what the timer's own turns spent around the wait.
    expect(hold.cpuInDelayMs).toBeLessThan(hold.delayMs - 100)
  })

  it('/metrics reports both, and a read starts a new span', async () => {
    await turn()
    takeLoopHold()
    busy(80)
    await turn()
    const text = await registry.metrics()
    const delay = Number(/^nodejs_eventloop_delay_longest_seconds (\S+)$/m.exec(text)?.[1])
    const cpu = Number(/^nodejs_eventloop_delay_longest_cpu_seconds (\S+)$/m.exec(text)?.[1])
    expect(delay).toBeGreaterThanOrEqual(0.07)
    expect(cpu).toBeGreaterThan(0)
    expect(cpu).toBeLessThanOrEqual(delay + 0.015)
    // A read takes the span: the next starts empty.
    takeLoopHold()
    expect(takeLoopHold()).toEqual({ delayMs: 0, cpuInDelayMs: 0 })
  })
})
