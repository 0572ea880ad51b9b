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
import { wordScoresBytes, type WordScores } from './wordScores'

/** Word scores kept per data version (about six bytes per public row holding a word). */
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
      const { order, total } = bestOf(lists, corpus.byOrdinal, need, keep)
      return { order, total }
    },
  }
}

// Scratch space shared by every ranking (filled and read without awaiting in between): each
// recency ordinal's place among this query's matches (0 = none; zeroed after use), and per
// place the ordinal and the summed score.
let placeOf = new Int32Array(0)
let matchOrdinals = new Int32Array(0)
let sums = new Float64Array(0)
let heap = new Int32Array(0)
/** Matches whose scratch (12 bytes each) is kept between queries. */
const MAX_RETAINED_MATCHES = 1 << 19

/** Grows a scratch array to at least n entries (half as much again, so growth is rare). */
function atLeast<T extends Int32Array | Float64Array>(a: T, n: number): T {
  return a.length >= n ? a : (new (a.constructor as new (n: number) => T)(n + (n >> 1)))
}

/**
 * The best `need` public rows of a query's words and their total: each match's score summed
 * over the words in the query's order, the matches the other filters drop set aside, and the
 * best kept by a heap of `need` places whose root is the worst kept (lower score, or the same
 * score and older); then those few are sorted.
 */
function bestOf(lists: WordScores[], byOrdinal: Int32Array, need: number, keep?: (rows: Int32Array) => Set<number>): RankedMatches {
  placeOf = atLeast(placeOf, byOrdinal.length + 1)
  let capacity = 0
  for (const l of lists) capacity += l.count
  matchOrdinals = atLeast(matchOrdinals, capacity)
  sums = atLeast(sums, capacity)
  let matches = 0
  for (const { count, ordinals, classes, classScores } of lists) {
    for (let i = 0; i < count; i++) {
      const o = ordinals[i]!
      const score = classScores[classes[i]!]!
      const place = placeOf[o]!
      if (place === 0) {
        // 0 + score, as FTS5's sum starts: the same double.
        matchOrdinals[matches] = o
        sums[matches++] = score
        placeOf[o] = matches
      } else {
        sums[place - 1]! += score
      }
    }
  }
  for (let m = 0; m < matches; m++) placeOf[matchOrdinals[m]!] = 0

  // The other filters, asked once about every match.
  let passing: Set<number> | undefined
  if (keep) {
    const rows = new Int32Array(matches)
    for (let m = 0; m < matches; m++) rows[m] = byOrdinal[matchOrdinals[m]! - 1]!
    passing = keep(rows)
  }

  // `a` ranks below `b`: a lower score, or the same score and an older row (a higher ordinal).
  const below = (a: number, b: number) => sums[a]! < sums[b]! || (sums[a] === sums[b] && matchOrdinals[a]! > matchOrdinals[b]!)
  heap = atLeast(heap, Math.min(need, matches))
  let kept = 0
  let total = 0
  for (let m = 0; m < matches; m++) {
    if (passing && !passing.has(byOrdinal[matchOrdinals[m]! - 1]!)) continue
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
  const order = Int32Array.from(best, (m) => byOrdinal[matchOrdinals[m]! - 1]!)
  // A query of very common words grew the per-match scratch: do not keep it.
  if (matchOrdinals.length > MAX_RETAINED_MATCHES) {
    matchOrdinals = new Int32Array(0)
    sums = new Float64Array(0)
  }
  return { order, total }
}
