/**
 * Records kept by row (src/db/freshness/rowRecords): a page's rows in its order, the kept ones served
 * while their rows are unmarked, the others (new, marked, or marked while being read) read
 * again; a rowid with no row left out.
 */
import { describe, expect, it } from 'vitest'

import type { ContentRecord } from '../../src/db/contentTypes'
import { Generations } from '../../src/db/freshness'
import { RowRecords } from '../../src/db/freshness'

const record = (rowid: number, title: string) => ({ id: `id-${rowid}`, title }) as ContentRecord

function store() {
  const generations = new Generations()
  generations.restored()
  const table = new Map<number, string>([[1, 'one'], [2, 'two'], [3, 'three']])
  const reads: number[][] = []
  const records = new RowRecords()
  const read = (rowids: number[]) =>
    records.read(rowids, generations, (missing) => {
      reads.push(missing)
      return missing.filter((r) => table.has(r)).map((r) => [r, record(r, table.get(r)!)])
    })
  return { generations, table, reads, read }
}

describe('RowRecords', () => {
  it('answers in the asked order, reads only the rows it does not keep, leaves out a rowid with no row', () => {
    const { reads, read } = store()
    expect(read([2, 1]).map((r) => r.title)).toEqual(['two', 'one'])
    expect(read([3, 1, 9, 2]).map((r) => r.title)).toEqual(['three', 'one', 'two'])
    expect(reads).toEqual([[2, 1], [3, 9]])
  })

  it('reads a marked row again, and only it', () => {
    const { generations, table, reads, read } = store()
    read([1, 2, 3])
    table.set(2, 'two, edited')
    generations.changed(['all_content'], ['id-2'])
    expect(read([1, 2, 3]).map((r) => r.title)).toEqual(['one', 'two, edited', 'three'])
    expect(reads.at(-1)).toEqual([2])
  })

  it('a content change that names no rows reads every row again', () => {
    const { generations, reads, read } = store()
    read([1, 2])
    generations.changed(['content'])
    read([1, 2])
    expect(reads).toEqual([[1, 2], [1, 2]])
  })

  it('a row marked while it was being read is read again next time', () => {
    const { generations, reads } = store()
    const records = new RowRecords()
    const readOnce = () =>
      records.read([1], generations, (missing) => {
        reads.push(missing)
        if (reads.length === 1) generations.changed(['all_content'], ['id-1'])
        return [[1, record(1, `read ${reads.length}`)]]
      })
    expect(readOnce()[0]!.title).toBe('read 1')
    expect(readOnce()[0]!.title).toBe('read 2')
    expect(readOnce()[0]!.title).toBe('read 2')
  })
})

describe('row stamps (src/db/freshness/generations)', () => {
  it('a fresh stamp moves to now, and a row marked later still makes it stale; a mark of another row does not', () => {
    const generations = new Generations()
    generations.restored()
    const stamp = { ids: ['a', 'b'], clock: generations.clock() }
    generations.changed(['all_content'], ['c'])
    expect(generations.fresh(stamp)).toBe(true)
    expect(stamp.clock).toBe(generations.clock())
    generations.changed(['all_content'], ['b'])
    expect(generations.fresh(stamp)).toBe(false)
    generations.changed(['content'])
    expect(generations.fresh({ ids: [], clock: stamp.clock })).toBe(false)
    // Blind: what was noted before the loss is stale; a value read after it lives as long as its (short) generation.
    const beforeLoss = { ids: ['a'], clock: generations.clock() }
    generations.lost()
    expect(generations.fresh(beforeLoss)).toBe(false)
    expect(generations.fresh({ ids: ['a'], clock: generations.clock() })).toBe(true)
  })
})

describe('rows marked since a clock (Generations.markedSince)', () => {
  it('names the rows marked after a clock, oldest first; none when nothing was marked', () => {
    const g = new Generations()
    g.restored()
    const at = g.clock()
    expect(g.markedSince(at)).toEqual([])
    g.changed(['content'], ['a', 'b'])
    const mid = g.clock()
    g.changed(['all_content'], ['c'])
    expect(g.markedSince(at)).toEqual(['a', 'b', 'c'])
    expect(g.markedSince(mid)).toEqual(['c'])
    expect(g.markedSince(g.clock())).toEqual([])
  })

  it('cannot tell (undefined) after a change reported without its rows, while blind, for a clock from before, or once the marks since were let go', () => {
    const g = new Generations()
    g.restored()
    const at = g.clock()
    g.changed(['content'], ['a'])
    g.changed(['content'])
    expect(g.markedSince(at)).toBeUndefined()
    const after = g.clock()
    expect(g.markedSince(after)).toEqual([])
    g.lost()
    expect(g.markedSince(g.clock())).toBeUndefined()
    g.restored()
    const start = g.clock()
    for (let i = 0; i < 5_000; i++) g.changed(['content'], [`r${i}`])
    expect(g.markedSince(start)).toBeUndefined() // the oldest marks were let go
    const recent = g.clock() - 100
    expect(g.markedSince(recent)).toHaveLength(100)
  })
})
