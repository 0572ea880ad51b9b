/**
 * Relevance order for public text searches: FTS5's bm25 with the columns' weights (a title
 * match counts three times; ./contentSchema's FTS_RANK), computed here from the index's own
 * parts instead of asking FTS5 to rank every match.
 *
 * FTS5's bm25 (fts5_aux.c) of a row for `"w1" OR "w2" …` is minus the sum, in query order, of
 * each phrase's IDF · F·(k1+1) / (F + k1·(1 − b + b·D/avgdl)), where IDF = ln((N − n + 0.5) /
 * (n + 0.5)) (1e-6 when not positive), N is the index's row count, n the rows holding the
 * phrase, F the sum of its occurrences' column weights in the row, D the row's length in
 * tokens and avgdl the mean length. What makes FTS5's rank slow is D: one docsize lookup per
 * match. Here every row's length is read once per data version (./searchCorpus), and a word's
 * rows and weighted counts straight from the index's pages (./ftsPostings, via ./wordReading).
 * The same arithmetic in the same order on the same doubles gives the same scores bit for
 * bit; the logarithm is SQLite's ln(), the C library's log that FTS5 calls.
 * test/content/ranking.test.ts holds the result to FTS5's ORDER BY rank, row by row.
 *
 * Ties are broken as the SQL does (`approved_at DESC, id DESC`) through the corpus's recency
 * ordinal of each public row. A word's scores are cached per data version for its public rows
 * only (./wordScores); a query adds its words' scores per row in the query's order (as FTS5
 * adds its phrases' scores, from 0), then keeps the best `need` rows with a bounded heap: no
 * match is left out or approximated, nothing beyond the rows asked for is sorted. The total
 * counts every match.
 */
import { VersionedCache, VersionedValue } from '../versionedCache'
import { readCorpus, type Corpus } from './searchCorpus'
import { serviceReader } from './sqlReader'
import { readWordScores } from './wordReading'
import { gapBytes, nextRow, wordScoresBytes, type WordScores } from './wordScores'

/** Word scores kept per data version (about two bytes per public row holding a word: ./wordScores). */
const MAX_CACHED_SCORE_BYTES = 40 * 1024 * 1024

export type RankedMatches = {
  /** The best public matches in relevance order, at most `need` of them. */
  order: Int32Array
  /** All public matches that pass the filter. */
  total: number
}

/** The ranker of one database file. */
export function textRanker(file: string) {
  const corpusValue = new VersionedValue<Corpus>('search_corpus')
  const wordCache = new VersionedCache<WordScores>('search_terms', 100_000, MAX_CACHED_SCORE_BYTES, wordScoresBytes)

  return {
    /**
     * Public rows matching any word, best first: what `ORDER BY rank, approved_at DESC, id DESC`
     * over `MATCH "w1" OR "w2" …` returns, cut to `need` rows. `keep`, given the public matches,
     * says which of them pass the query's other filters.
     */
    async rank(version: string, words: string[], need: number, keep?: (rows: Int32Array) => Set<number>): Promise<RankedMatches> {
      const corpus = await corpusValue.get(version, async () => readCorpus(serviceReader(file)))
      const lists: WordScores[] = []
      for (const word of words) lists.push(await wordCache.get(version, word, () => readWordScores(serviceReader(file), corpus, word)))
      // From here on nothing awaits, so the shared scratch buffers are this call's alone.
      const { order, total } = bestOf(lists, corpus.byRow, need, keep)
      return { order, total }
    },
  }
}

// Scratch space shared by every ranking (filled and read without awaiting in between): two
// sets of merged matches (rowid, summed score) that the words' merges alternate between, each
// match's recency ordinal, and the heap.
let rowsA = new Int32Array(0)
let sumsA = new Float64Array(0)
let rowsB = new Int32Array(0)
let sumsB = new Float64Array(0)
let ordinalsOf = new Int32Array(0)
let heap = new Int32Array(0)
/** Matches whose scratch (32 bytes each) is kept between queries. */
const MAX_RETAINED_MATCHES = 1 << 19

/** Grows a scratch array to at least n entries (half as much again, so growth is rare). */
function atLeast<T extends Int32Array | Float64Array>(a: T, n: number): T {
  return a.length >= n ? a : (new (a.constructor as new (n: number) => T)(n + (n >> 1)))
}

/**
 * The words' lists merged by rowid (each is ascending): one sequential pass per word, each
 * row's score the sum of its words' scores in the query's order, from 0 (as FTS5 adds its
 * phrases' scores: the same doubles in the same order). Leaves the matches in rowsA/sumsA.
 */
function mergeWords(lists: WordScores[]): number {
  let capacity = 0
  for (const l of lists) capacity += l.count
  rowsA = atLeast(rowsA, capacity)
  sumsA = atLeast(sumsA, capacity)
  rowsB = atLeast(rowsB, capacity)
  sumsB = atLeast(sumsB, capacity)
  let n = 0
  for (const { count, gaps, classes, classScores } of lists) {
    // Merge (rowsA, sumsA)[0, n) with this word's list into B, then swap.
    let i = 0
    let out = 0
    let p = 0
    let row = 0
    for (let j = 0; j < count; j++) {
      row = nextRow(gaps, p, row)
      p += gapBytes(gaps, p)
      const score = classScores[classes[j]!]!
      while (i < n && rowsA[i]! < row) {
        rowsB[out] = rowsA[i]!
        sumsB[out++] = sumsA[i++]!
      }
      rowsB[out] = row
      sumsB[out++] = i < n && rowsA[i] === row ? sumsA[i++]! + score : 0 + score
    }
    while (i < n) {
      rowsB[out] = rowsA[i]!
      sumsB[out++] = sumsA[i++]!
    }
    ;[rowsA, rowsB] = [rowsB, rowsA]
    ;[sumsA, sumsB] = [sumsB, sumsA]
    n = out
  }
  return n
}

/**
 * The best `need` public rows of a query's words and their total: the words' lists merged
 * (each match's summed score), the matches the other filters drop set aside, and the best
 * kept by a heap of `need` places whose root is the worst kept (lower score, or the same score
 * and older); then those few are sorted.
 */
function bestOf(lists: WordScores[], byRow: Int32Array, need: number, keep?: (rows: Int32Array) => Set<number>): RankedMatches {
  const matches = mergeWords(lists)
  const rows = rowsA
  const sums = sumsA
  // Each match's recency ordinal (rows ascend, so these reads move forward through byRow).
  ordinalsOf = atLeast(ordinalsOf, matches)
  for (let m = 0; m < matches; m++) ordinalsOf[m] = byRow[2 * rows[m]!]!
  const ordinals = ordinalsOf

  // The other filters, asked once about every match.
  const passing = keep ? keep(rows.slice(0, matches)) : undefined

  // `a` ranks below `b`: a lower score, or the same score and an older row (a higher ordinal).
  const below = (a: number, b: number) => sums[a]! < sums[b]! || (sums[a] === sums[b] && ordinals[a]! > ordinals[b]!)
  heap = atLeast(heap, Math.min(need, matches))
  let kept = 0
  let total = 0
  for (let m = 0; m < matches; m++) {
    if (passing && !passing.has(rows[m]!)) continue
    total++
    if (kept < need) {
      // Sift up from the new leaf.
      let i = kept++
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!below(m, heap[parent]!)) break
        heap[i] = heap[parent]!
        i = parent
      }
      heap[i] = m
    } else if (need > 0 && below(heap[0]!, m)) {
      // Replace the worst kept and sift it down.
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        if (left >= kept) break
        const right = left + 1
        const lower = right < kept && below(heap[right]!, heap[left]!) ? right : left
        if (!below(heap[lower]!, m)) break
        heap[i] = heap[lower]!
        i = lower
      }
      heap[i] = m
    }
  }
  const best = Array.from(heap.subarray(0, kept)).sort((a, b) => (below(a, b) ? 1 : below(b, a) ? -1 : 0))
  const order = Int32Array.from(best, (m) => rows[m]!)
  // A query of very common words grew the per-match scratch: do not keep it.
  if (rowsA.length > MAX_RETAINED_MATCHES) {
    rowsA = rowsB = ordinalsOf = new Int32Array(0)
    sumsA = sumsB = new Float64Array(0)
  }
  return { order, total }
}
