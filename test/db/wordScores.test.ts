/**
 * The word cache's form (src/db/sqlite/search/wordScores) and the comma lists SQLite hands over
 * (src/db/sqlite/search/commaLists): what goes in comes back, in its own arrays of the right size.
 */
import { describe, expect, it } from 'vitest'

import { parseIntegers } from '../../src/db/sqlite/search/commaLists'
import { rowsOf, wordScoresBytes, wordScoresOf } from '../../src/db/sqlite/search/wordScores'

describe('cached word scores', () => {
  it('keep the first n (rowid, class) pairs and the class scores, copied out of the scratch given', () => {
    const rows = Int32Array.from([2, 5, 7, 9, 0, 0])
    const classes = Int32Array.from([1, 0, 1, 2, 9, 9])
    const w = wordScoresOf(rows, classes, [0.5, 1.25, 3], 4)
    rows.fill(-1)
    classes.fill(-1)
    expect(w.count).toBe(4)
    expect(Array.from(rowsOf(w))).toEqual([2, 5, 7, 9])
    expect(Array.from(w.classes)).toEqual([1, 0, 1, 2])
    expect(Array.from(w.classScores)).toEqual([0.5, 1.25, 3])
    // A byte a row's gap and a byte its class while both fit.
    expect(w.classes).toBeInstanceOf(Uint8Array)
    expect(wordScoresBytes(w)).toBe(4 * 1 + 4 * 1 + 3 * 8 + 96)
  })

  it('keep gaps too large for a byte in five bytes, up to the largest rowid', () => {
    const rows = Int32Array.from([1, 256, 257, 70_000, 2 ** 31 - 1])
    const w = wordScoresOf(rows, new Int32Array(5), [1], 5)
    expect(Array.from(rowsOf(w))).toEqual(Array.from(rows))
    // Gaps 1, 255, 1 in a byte each; 69,743 and the last in five.
    expect(w.gaps.byteLength).toBe(3 + 5 + 5)
  })

  it('keep the rows ascending, each with its own class, whatever order they came in', () => {
    const w = wordScoresOf(Int32Array.from([9, 2, 7, 5]), Int32Array.from([0, 1, 2, 3]), [1, 2, 3, 4], 4)
    expect(Array.from(rowsOf(w))).toEqual([2, 5, 7, 9])
    expect(Array.from(w.classes)).toEqual([1, 3, 2, 0])
  })

  it('widen class indexes past 256 and 65,536 classes (a phrase word: one class per row)', () => {
    for (const [n, kind] of [[300, Uint16Array], [70_000, Int32Array]] as const) {
      const w = wordScoresOf(Int32Array.from({ length: n }, (_, i) => i + 1), Int32Array.from({ length: n }, (_, i) => i), new Float64Array(n), n)
      expect(w.classes).toBeInstanceOf(kind)
      expect(w.classes[n - 1]).toBe(n - 1)
      expect(rowsOf(w)[n - 1]).toBe(n)
    }
  })

  it('hold nothing for an empty list', () => {
    const w = wordScoresOf(new Int32Array(0), new Int32Array(0), [], 0)
    expect([w.count, w.gaps.length, w.classes.length, w.classScores.length]).toEqual([0, 0, 0, 0])
  })
})

describe('comma lists', () => {
  it('read integer lists, empty included', () => {
    expect(Array.from(parseIntegers('3,1,2,1000000'))).toEqual([3, 1, 2, 1000000])
    expect(Array.from(parseIntegers('42'))).toEqual([42])
    expect(Array.from(parseIntegers(''))).toEqual([])
  })
})
