/**
 * The word cache's form (src/db/sqlite/wordScores) and the comma lists SQLite hands over
 * (src/db/sqlite/commaLists): what goes in comes back, in its own arrays of the right size.
 */
import { describe, expect, it } from 'vitest'

import { parseIntegers } from '../../src/db/sqlite/commaLists'
import { wordScoresBytes, wordScoresOf } from '../../src/db/sqlite/wordScores'

describe('cached word scores', () => {
  it('keep the first n (ordinal, class) pairs and the class scores, copied out of the scratch given', () => {
    const ordinals = Int32Array.from([5, 9, 2, 7, 0, 0])
    const classes = Int32Array.from([1, 0, 1, 2, 9, 9])
    const w = wordScoresOf(ordinals, classes, [0.5, 1.25, 3], 4)
    ordinals.fill(-1)
    classes.fill(-1)
    expect(w.count).toBe(4)
    expect(Array.from(w.ordinals)).toEqual([5, 9, 2, 7])
    expect(Array.from(w.classes)).toEqual([1, 0, 1, 2])
    expect(Array.from(w.classScores)).toEqual([0.5, 1.25, 3])
    // Two bytes a class index while the classes fit, four plus the ordinal's four beyond.
    expect(w.classes).toBeInstanceOf(Uint16Array)
    expect(wordScoresBytes(w)).toBe(4 * 4 + 4 * 2 + 3 * 8 + 96)
  })

  it('widen class indexes past 65,536 classes (a phrase word: one class per row)', () => {
    const n = 70_000
    const w = wordScoresOf(Int32Array.from({ length: n }, (_, i) => i + 1), Int32Array.from({ length: n }, (_, i) => i), new Float64Array(n), n)
    expect(w.classes).toBeInstanceOf(Int32Array)
    expect(w.classes[n - 1]).toBe(n - 1)
  })

  it('hold nothing for an empty list', () => {
    const w = wordScoresOf(new Int32Array(0), new Int32Array(0), [], 0)
    expect([w.count, w.ordinals.length, w.classes.length, w.classScores.length]).toEqual([0, 0, 0, 0])
  })
})

describe('comma lists', () => {
  it('read integer lists, empty included', () => {
    expect(Array.from(parseIntegers('3,1,2,1000000'))).toEqual([3, 1, 2, 1000000])
    expect(Array.from(parseIntegers('42'))).toEqual([42])
    expect(Array.from(parseIntegers(''))).toEqual([])
  })
})
