/**
 * The word cache's packed form (src/db/sqlite/wordScores) and the occurrence lists it is built
 * from (src/db/sqlite/wordReading): what goes in comes back, in the order a one-word search
 * returns it (score descending, then recency ordinal ascending).
 */
import { describe, expect, it } from 'vitest'

import { parseIntegers, parseOccurrences } from '../../src/db/sqlite/commaLists'
import { packWordScores, unpackOrdinals, type WordScores } from '../../src/db/sqlite/wordScores'

/** The packed rows as (ordinal, score) pairs, in packed order. */
function unpack(w: WordScores): [number, number][] {
  const ordinals = new Int32Array(w.count)
  unpackOrdinals(w, ordinals)
  const out: [number, number][] = []
  let i = 0
  w.sizes.forEach((size, group) => {
    for (let end = i + size; i < end; i++) out.push([ordinals[i]!, w.scores[group]!])
  })
  return out
}

/** A deterministic pseudo-random sequence (no flaky inputs). */
function* numbers(seed: number) {
  let x = seed
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31
    yield x
  }
}

describe('packed word scores', () => {
  it('give back every (ordinal, score) pair, best score first, then the lowest ordinal', () => {
    const random = numbers(7)
    const n = 5000
    const classScores = [3.25, 1.5, 7.125, 1.5, 0.000001, 2.75] // two classes share 1.5
    const ordinals = new Int32Array(n)
    const classes = new Int32Array(n)
    const used = new Set<number>()
    for (let i = 0; i < n; i++) {
      let o: number
      do o = 1 + (random.next().value! % 3_000_000)
      while (used.has(o))
      used.add(o)
      ordinals[i] = o
      classes[i] = random.next().value! % classScores.length
    }
    const packed = packWordScores(ordinals, classes, classScores, n)
    const expected = Array.from(ordinals, (o, i): [number, number] => [o, classScores[classes[i]!]!]).sort(
      ([oa, sa], [ob, sb]) => sb - sa || oa - ob,
    )
    expect(packed.count).toBe(n)
    expect(Array.from(packed.scores)).toEqual([7.125, 3.25, 2.75, 1.5, 0.000001])
    expect(unpack(packed)).toEqual(expected)
    // About two bytes a row: gaps under 65,535 take one 16-bit unit.
    expect(packed.gaps.length).toBeLessThan(n * 1.1)
  })

  it('keeps gaps of 65,535 and more (escaped) and ordinals up to 2^31 - 1', () => {
    const ordinals = Int32Array.from([1, 65_536, 65_537, 200_000, 2 ** 31 - 1])
    const classes = new Int32Array(ordinals.length)
    const packed = packWordScores(ordinals, classes, [1], ordinals.length)
    expect(unpack(packed).map(([o]) => o)).toEqual(Array.from(ordinals))
  })

  it('pack nothing into an empty list', () => {
    const packed = packWordScores(new Int32Array(0), new Int32Array(0), [], 0)
    expect(packed.count).toBe(0)
    expect(unpack(packed)).toEqual([])
  })
})

describe('occurrence lists', () => {
  it('count a row once per adjacent repeat', () => {
    const { rows, counts } = parseOccurrences('5,5,7,9,9,9,1234567')
    expect(Array.from(rows)).toEqual([5, 7, 9, 1234567])
    expect(Array.from(counts)).toEqual([2, 1, 3, 1])
  })

  it('read an empty list and a single row', () => {
    expect(Array.from(parseOccurrences('').rows)).toEqual([])
    const one = parseOccurrences('42')
    expect([Array.from(one.rows), Array.from(one.counts)]).toEqual([[42], [1]])
  })

  it('read plain integer lists', () => {
    expect(Array.from(parseIntegers('3,1,2,1000000'))).toEqual([3, 1, 2, 1000000])
    expect(Array.from(parseIntegers(''))).toEqual([])
  })
})
