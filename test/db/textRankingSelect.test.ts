/**
 * The ranking's selection step (src/db/sqlite/search/textRanking): the k-th largest of a list of
 * scores with many equal values (bm25 gives a word few distinct scores), against a full sort.
 * The ranking's order itself is held to FTS5's in test/content/ranking.test.ts.
 */
import { describe, expect, it } from 'vitest'

import { kthLargest } from '../../src/db/sqlite/search/textRanking'

/** A small deterministic generator (the cases are the same on every run). */
function generator(seed: number) {
  let s = seed >>> 0
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32)
}

describe('kthLargest', () => {
  it('is the k-th value of the descending sort, for any k, with few or many distinct values', () => {
    const random = generator(7)
    for (let trial = 0; trial < 3000; trial++) {
      const n = 1 + Math.floor(random() * 400)
      const distinct = 1 + Math.floor(random() * (trial % 2 ? 8 : 1000))
      const values = Float64Array.from({ length: n }, () => Math.floor(random() * distinct) * 0.37)
      const k = 1 + Math.floor(random() * n)
      const expected = Float64Array.from(values).sort().reverse()[k - 1]
      expect(kthLargest(Float64Array.from(values), n, k)).toBe(expected)
    }
  })

  it('reads only the first n values', () => {
    const values = Float64Array.from([1, 5, 3, 100, 200])
    expect(kthLargest(values, 3, 1)).toBe(5)
    expect(kthLargest(Float64Array.from([1, 5, 3, 100, 200]), 3, 3)).toBe(1)
  })
})
