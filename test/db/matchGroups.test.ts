/**
 * A hot search ranked from its groups (src/db/sqlite/search/matchGroups.ts) gives the rows the merge
 * gives: every match's score summed in query order, best first, the newer row first among equal
 * scores, cut to `need`, with the same total. Held here against that definition computed row by
 * row, over words with few classes (many ties across groups), after the class scores move (an
 * approval elsewhere: the groups kept, no rebuild) and for a `need` past the rows kept (built
 * again). test/db/wordFollowing.test.ts holds the whole ranking to FTS5's order across writes.
 */
import { describe, expect, it } from 'vitest'

import { groupMatches, MatchGroupCache, rankGroups } from '../../src/db/sqlite/search/matchGroups'
import { PagedInts } from '../../src/db/sqlite/search/pagedInts'
import type { Corpus } from '../../src/db/sqlite/search/searchCorpus'
import { registry } from '../../src/platform/metrics'
import { rowsOf, withClassScores, wordScoresOf, type WordScores } from '../../src/db/sqlite/search/wordScores'

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ROWS = 20_000

/** A corpus of ROWS public rows whose places (recency) are a shuffle of their rowids. */
function corpus(next: () => number): Corpus {
  const byOrdinal = Int32Array.from({ length: ROWS }, (_, i) => i + 1)
  for (let i = ROWS - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[byOrdinal[i], byOrdinal[j]] = [byOrdinal[j]!, byOrdinal[i]!]
  }
  const byRow = new Int32Array(2 * (ROWS + 1))
  byOrdinal.forEach((row, p) => (byRow[2 * row] = p + 1))
  return { rows: ROWS, avgdl: 10, byRow: PagedInts.from(byRow), publicLength: new Uint8Array(ROWS + 1), longest: 20, byOrdinal: PagedInts.from(byOrdinal), changeSeq: 1 }
}

/** A word in about `share` of the rows, each row in one of `classCount` classes. */
function word(next: () => number, share: number, classCount: number): WordScores {
  const rows: number[] = []
  const classes: number[] = []
  for (let r = 1; r <= ROWS; r++) {
    if (next() >= share) continue
    rows.push(r)
    classes.push(Math.floor(next() * classCount))
  }
  const scores = Array.from({ length: classCount }, () => 0.5 + Math.round(next() * 8) / 4)
  return wordScoresOf(Int32Array.from(rows), Int32Array.from(classes), scores, rows.length)
}

/** The definition: every match's sum in query order, best first, then the newer row, cut to need. */
function expected(lists: WordScores[], c: Corpus, need: number): { order: number[]; total: number } {
  const sums = new Map<number, number>()
  for (const list of lists) {
    const rows = rowsOf(list)
    rows.forEach((row, j) => {
      const s = list.classScores[list.classes[j]!]!
      sums.set(row, sums.has(row) ? sums.get(row)! + s : s)
    })
  }
  const order = [...sums.keys()].sort((a, b) => sums.get(b)! - sums.get(a)! || c.byRow.get(2 * b) - c.byRow.get(2 * a))
  return { order: order.slice(0, need), total: sums.size }
}

/** Rankings served from kept groups (hits) and not (misses). */
async function served(): Promise<{ hit: number; miss: number }> {
  const text = await registry.metrics()
  const count = (result: string) =>
    Number(text.split('\n').find((l) => l.startsWith(`cache_lookups_total{cache="search_match_groups",result="${result}"}`))?.split(' ').at(-1) ?? 0)
  return { hit: count('hit'), miss: count('miss') }
}

const asPlain = (r: { order: Int32Array; total: number } | undefined) => r && { order: Array.from(r.order), total: r.total }

describe('ranking from match groups', () => {
  it('orders as the row-by-row definition for one to three words, every need, ties across groups newest first', () => {
    const next = random(7)
    const c = corpus(next)
    const words = [word(next, 0.3, 4), word(next, 0.2, 6), word(next, 0.05, 3)]
    for (const lists of [[words[0]!], [words[0]!, words[1]!], [words[1]!, words[0]!], words]) {
      const groups = groupMatches(lists)!
      // Few classes: a few dozen groups for thousands of matches.
      expect(groups.counts.length).toBeLessThan(200)
      for (const need of [1, 7, 200, 1_000, 50_000]) {
        expect({ need, ...asPlain(rankGroups(groups, lists, c, need)) }).toEqual({ need, ...expected(lists, c, need) })
      }
    }
  })

  it('keeps a hot query from its second ranking, follows new class scores without a rebuild, and builds again past the rows it kept', async () => {
    const next = random(11)
    const c = corpus(next)
    const lists = [word(next, 0.4, 5), word(next, 0.4, 5)]
    const cache = new MatchGroupCache()
    const words = ['alpha', 'beta']
    // A first ranking is left to the merge; the second builds the groups.
    expect(cache.rank(words, lists, c, 200)).toBeUndefined()
    expect(asPlain(cache.rank(words, lists, c, 200))).toEqual(expected(lists, c, 200))
    // N and the mean length moved: other class scores on the same rows (as rescoreWord gives).
    const moved = lists.map((l) => withClassScores(l, l.classScores.map((s, i) => s * (1 + i / 1000))))
    const before = await served()
    expect(asPlain(cache.rank(words, moved, c, 200))).toEqual(expected(moved, c, 200))
    expect(await served()).toEqual({ hit: before.hit + 1, miss: before.miss })
    // Deeper than the best groups kept: built again, still the definition's order.
    expect(asPlain(cache.rank(words, moved, c, 12_000))).toEqual(expected(moved, c, 12_000))
    // A row added to a word (new rows): built again from the new lists.
    const patched = [moved[0]!, word(next, 0.4, 5)]
    expect(asPlain(cache.rank(words, patched, c, 200))).toEqual(expected(patched, c, 200))
  })

  it('leaves words with too many classes to group (a group key past 31 bits) to the merge', () => {
    const next = random(3)
    const lists = Array.from({ length: 4 }, () => word(next, 0.05, 300))
    expect(groupMatches(lists)).toBeUndefined()
  })
})
