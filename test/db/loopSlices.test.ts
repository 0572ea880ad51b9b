/**
 * Payload's SQLite statements run in slices of the event loop (src/platform/loopSlices): a
 * chain of synchronous statements continued by promises lets timers and other requests run
 * once it has held the loop for a slice, instead of holding it to the end.
 */
import { describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { engine } from '../../src/db/engine'
import { beforeEachStatement, inSlices } from '../../src/platform/loopSlices'
import { splitTerms } from '../../src/services/contentQuery'
import { GENERAL, seedContent, seedDemo } from '../../src/seed/seed'
import { testApp } from '../support/app'

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
  // Held by statements counted, not by a clock: a process the machine descheduled is not a blocked
  // loop (the delay in milliseconds is npm run bench's to report).
  it('a timer due during a 60 ms chain of statements runs within a couple of slices, not after the chain', async () => {
    const done: number[] = []
    let stepsWhenTimerRan = -1
    setTimeout(() => (stepsWhenTimerRan = done.length), 0)
    await chain(30, 2, inSlices, done)
    expect(done).toHaveLength(30)
    expect(stepsWhenTimerRan).toBeGreaterThanOrEqual(0)
    expect(stepsWhenTimerRan, 'statements run before the timer').toBeLessThan(15)
  })

  it('a check registered runs before every statement, of either kind, until it is let go', async () => {
    const seen: string[] = []
    let step = 0
    const stop = beforeEachStatement(() => seen.push(`before ${step}`))
    await inSlices(async () => void (step = 1))
    await inSlices(async () => void (step = 2), 'write')
    stop()
    await inSlices(async () => void (step = 3))
    // (A statement that waited for a later turn asks again when woken: checked again.)
    expect([...new Set(seen)]).toEqual(['before 0', 'before 1'])
    expect(step).toBe(3)
  })

  it('a turn of the loop runs one slice of reads, also when it began outside a check phase', async () => {
    // A slice begun in a timers or poll phase (the first statements after a quiet moment) woke its
    // waiters by setImmediate, in the check phase of the same loop iteration, and they began a
    // second slice there: two slices before the next timer. Counted between two timers, not timed.
    const done: number[] = []
    const chains: Promise<void>[] = []
    const perTurn: number[] = []
    let last = 0
    let ticks = 0
    await new Promise<void>((ticked) => {
      const tick = () => {
        perTurn.push(done.length - last)
        last = done.length
        if (++ticks > 20) return ticked()
        // A new request each turn, outside the check phase: a read of 8 statements, two slices long.
        chains.push(chain(8, 2, inSlices, done))
        setTimeout(tick, 0)
      }
      setTimeout(tick, 0)
    })
    await Promise.all(chains)
    expect(done).toHaveLength(160)
    // An 8 ms slice of 2 ms statements: 4, or 5 with the one that crosses the slice's end.
    expect(Math.max(...perTurn), `statements per turn: ${perTurn.join(' ')}`).toBeLessThanOrEqual(5)
  })

  it('a save is not starved by the page reads waiting for the same turns: it gets a slice of its own in each', async () => {
    // After a write, every hot search is ranked again: many reads, each a few ms, wait for turns.
    // A save's statements beside them (its write gate and transaction held) must not wait behind
    // them all: one 2 ms statement a turn behind twenty 2 ms reads took the save 20 turns and more.
    let turns = 0
    let counting = true
    const count = () => {
      turns += 1
      if (counting) setImmediate(count)
    }
    setImmediate(count)
    const reads = Array.from({ length: 20 }, () => chain(30, 2, (step) => inSlices(step), []))
    const written: number[] = []
    await chain(10, 2, (step) => inSlices(step, 'write'), written)
    const turnsForSave = turns
    await Promise.all(reads)
    counting = false
    expect(written).toHaveLength(10)
    // 20 ms of statements in 8 ms slices: 3 turns, 5 with what a turn's boundary costs.
    expect(turnsForSave, `turns the save took (the reads took ${turns})`).toBeLessThanOrEqual(6)
  })

  it("a save's statements waiting for the next turn run before the reads waiting for it", async () => {
    // A save holds the file's write lock: each turn it waits behind reads is time every other
    // writer, in this process or another worker, waits for the lock. Each statement is logged with
    // whether it ran when asked (`at once`) or was woken in a later turn; a mark is logged in every
    // check phase, so the statements between two marks ran in one turn.
    const log: string[] = []
    let marking = true
    const mark = () => {
      log.push('|')
      if (marking) setImmediate(mark)
    }
    setImmediate(mark)
    const logged = (kind: 'R' | 'W') => (step: () => Promise<void>) => {
      let asked = true
      const ran = inSlices(async () => {
        log.push(asked ? kind.toLowerCase() : kind)
        await step()
      }, kind === 'W' ? 'write' : 'read')
      asked = false
      return ran
    }
    // Twenty reads fill this turn's slice of reads and wait; then a save, past its own slice, waits too.
    const reads = Array.from({ length: 20 }, () => chain(12, 2, logged('R'), []))
    await chain(20, 2, logged('W'), [])
    await Promise.all(reads)
    marking = false
    const turns = log.join('').split('|')
    const wokenWrites = turns.filter((t) => t.includes('W'))
    expect(wokenWrites.length, log.join('')).toBeGreaterThan(0)
    // In every turn the save was woken in, no read woken in that turn ran before it.
    for (const t of wokenWrites) expect(t.slice(0, t.indexOf('W')), `a turn: ${t}`).not.toContain('R')
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

describe.runIf(getConfig().database.engine === 'sqlite')('page reads in slices (SQLite content store)', () => {
  it('200 searches asked at once, each read anew: a timer due at once runs before they are all done', async () => {
    const app = await testApp()
    await seedDemo(app.payload)
    await seedContent(app.payload, 2000, { seed: 5 })
    const store = engine().contentStore(app.payload)
    const query = (i: number) => ({
      statuses: ['approved' as const], includeInactive: false, text: splitTerms(`${GENERAL[i % GENERAL.length]} ${GENERAL[(i * 7 + 3) % GENERAL.length]}`),
      sort: 'relevance' as const, offset: 0, limit: 20 + (i % 5), estimate: false,
    })
    await store.listContent(query(0)) // the corpus and first words read
    let done = 0
    let doneWhenTimerRan = -1
    setTimeout(() => (doneWhenTimerRan = done), 0)
    const started = performance.now()
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.listContent(query(i + 1)).then(() => (done += 1))))
    const took = performance.now() - started
    expect(done).toBe(200)
    expect(took, 'long enough to need several slices').toBeGreaterThan(40)
    expect(doneWhenTimerRan).toBeGreaterThanOrEqual(0)
    expect(doneWhenTimerRan, 'pages read before the timer ran').toBeLessThan(200)
  }, 120_000)
})
