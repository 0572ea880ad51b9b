/**
 * The search corpus's paged arrays (src/db/sqlite/search/pagedInts.ts): a new version reads as the
 * values written into it and shares every page it did not write with the version it came from,
 * which never changes (a ranking under way may hold it); a shorter or longer version reads 0
 * past what it holds.
 */
import { describe, expect, it } from 'vitest'

import { PagedInts } from '../../src/db/sqlite/search/pagedInts'

const PAGE = 1 << 16

/** The first index where two arrays differ (-1: none): vitest's deep equality is slow on 200,000 entries. */
function firstDifference(a: Int32Array, b: Int32Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length)
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i
  return -1
}

/** The steps of a generator run to the end. */
const run = (steps: Iterable<void>) => {
  for (const _ of steps);
}

describe('paged integer arrays', () => {
  const values = Int32Array.from({ length: 3 * PAGE + 100 }, (_, i) => i * 3 + 1)

  it('read as the array they were made from, 0 past the end', () => {
    const paged = PagedInts.from(values)
    expect(paged.length).toBe(values.length)
    for (const i of [0, 1, PAGE - 1, PAGE, 2 * PAGE + 7, values.length - 1]) expect(paged.get(i)).toBe(values[i])
    expect(paged.get(values.length)).toBe(0)
    expect(paged.get(10 * PAGE)).toBe(0)
    expect(firstDifference(paged.slice(), values)).toBe(-1)
    expect(firstDifference(paged.slice(PAGE - 5, 2 * PAGE + 5), values.slice(PAGE - 5, 2 * PAGE + 5))).toBe(-1)
  })

  it('a version written in one entry and one range shares every other page, and the one before it is unchanged', () => {
    const before = PagedInts.from(values)
    const draft = before.draft(values.length + 10)
    draft.set(5, -1)
    run(draft.setRange(values.length - 3, Int32Array.of(7, 8, 9, 10, 11)))
    const after = draft.done()

    const expected = new Int32Array(values.length + 10)
    expected.set(values)
    expected[5] = -1
    expected.set([7, 8, 9, 10, 11], values.length - 3)
    expect(firstDifference(after.slice(), expected)).toBe(-1)
    expect(after.get(values.length + 9)).toBe(0)
    // Pages 0 and 3 written; 1 and 2 the same objects as before.
    expect(after.sharedPages(before)).toBe(2)
    expect(firstDifference(before.slice(), values)).toBe(-1)
  })

  it('a version with nothing written shares every page', () => {
    const before = PagedInts.from(values)
    expect(before.draft(values.length).done().sharedPages(before)).toBe(4)
  })

  it('a shorter version reads 0 past its end, the longer one before it unchanged', () => {
    const before = PagedInts.from(values)
    const shorter = before.draft(PAGE + 10).done()
    expect(shorter.length).toBe(PAGE + 10)
    expect(firstDifference(shorter.slice(), values.slice(0, PAGE + 10))).toBe(-1)
    expect(shorter.get(PAGE + 10)).toBe(0)
    // Growing it again shows zeros where the longer version had values, not those values.
    const regrown = shorter.draft(PAGE + 20).done()
    expect(regrown.slice(PAGE + 10, PAGE + 20)).toEqual(new Int32Array(10))
    expect(firstDifference(before.slice(), values)).toBe(-1)
  })

  it('a write to a draft after its version was made leaves that version as it was', () => {
    const draft = PagedInts.from(values).draft(values.length)
    draft.set(3, 42)
    const made = draft.done()
    draft.set(3, 43)
    draft.set(PAGE + 1, 44)
    expect([made.get(3), made.get(PAGE + 1)]).toEqual([42, values[PAGE + 1]])
    expect(draft.done().get(3)).toBe(43)
  })

  it('refuses a write past the draft’s end', () => {
    const draft = PagedInts.from(values).draft(10)
    expect(() => draft.set(10, 1)).toThrow(RangeError)
    expect(() => run(draft.setRange(8, Int32Array.of(1, 2, 3)))).toThrow(RangeError)
  })
})
