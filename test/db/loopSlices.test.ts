/**
 * Payload's SQLite statements run in slices of the event loop (src/db/sqlite/loopSlices): a
 * chain of synchronous statements continued by promises lets timers and other requests run
 * once it has held the loop for a slice, instead of holding it to the end.
 */
import { describe, expect, it } from 'vitest'

import { inSlices } from '../../src/db/sqlite/loopSlices'

const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until);
}

/** A save as Payload runs one: `steps` statements of `ms` each, each continued by a promise. */
async function chain(steps: number, ms: number, run: (step: () => Promise<void>) => Promise<void>, done: number[]) {
  for (let i = 0; i < steps; i++) {
    await run(async () => {
      busy(ms)
      done.push(i)
    })
  }
}

describe('statements in slices of the event loop', () => {
  it('a timer due during a 60 ms chain of statements runs within a couple of slices, not after the chain', async () => {
    const done: number[] = []
    let stepsWhenTimerRan = -1
    let lag = 0
    const armed = performance.now()
    setTimeout(() => {
      stepsWhenTimerRan = done.length
      lag = performance.now() - armed
    }, 0)
    await chain(30, 2, inSlices, done)
    expect(done).toHaveLength(30)
    expect(stepsWhenTimerRan).toBeGreaterThanOrEqual(0)
    expect(stepsWhenTimerRan, 'statements run before the timer').toBeLessThan(15)
    expect(lag).toBeLessThan(40)
  })

  it('the same chain without slices holds the loop to its end (what a save did)', async () => {
    const done: number[] = []
    let stepsWhenTimerRan = -1
    setTimeout(() => (stepsWhenTimerRan = done.length), 0)
    await chain(30, 2, (step) => step(), done)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(stepsWhenTimerRan).toBe(30)
  })
})
