/**
 * Relevance order for public text searches: FTS5's bm25, computed here from the index's own
 * parts instead of asking FTS5 to rank every match.
 *
 * FTS5's bm25 (fts5_aux.c) of a row for `"w1" OR "w2" …` is minus the sum, in query order, of
 * each phrase's IDF · f·(k1+1) / (f + k1·(1 − b + b·D/avgdl)), where IDF = ln((N − n + 0.5) /
 * (n + 0.5)) (1e-6 when not positive), N is the index's row count, n the rows holding the
 * phrase, f its occurrences in the row, D the row's length in tokens and avgdl the mean length.
 * What makes FTS5's rank slow is D: one docsize lookup per match (9 ms for a word in 15,000 of
 * a million rows). Here every row's length is read once per data version (./searchCorpus), and
 * a word's rows and counts come from the index's instance vocabulary (./wordReading, about
 * 2.5 ms for the same word, packing included). The same arithmetic in the same
 * order on the same doubles gives the same scores bit for bit; the logarithm is SQLite's ln(),
 * the C library's log that FTS5 calls. test/content/ranking.test.ts holds the result to FTS5's
 * ORDER BY rank, row by row.
 *
 * Ties are broken as the SQL does (`approved_at DESC, id DESC`) through the corpus's recency
 * ordinal of each public row. A word's scores are cached per data version for its public rows
 * only, in the order a search for that word alone returns them (./wordScores), so a query
 * merges its words' lists and stops after the rows it needs; only rows several words share
 * are summed and sorted. The total counts every match.
 */
import { VersionedCache, VersionedValue } from '../versionedCache'
import { readCorpus, type Corpus } from './searchCorpus'
import { serviceReader } from './sqlReader'
import { readWordScores } from './wordReading'
import { unpackOrdinals, wordScoresBytes, type WordScores } from './wordScores'

/** Word scores kept per data version (about two bytes per public row holding a word). */
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

// Scratch space shared by every ranking (filled and read without awaiting in between): the
// decoded ordinals of each query word, and two bitmaps over recency ordinals (zero between uses).
const decoded: Int32Array[] = []
let seen = new Int32Array(0)
let repeated = new Int32Array(0)

const bitOf = (bits: Int32Array, o: number) => bits[o >>> 5]! & (1 << (o & 31))

/**
 * The best `need` public rows of a query's words and their total. A row in one word's list
 * scores that word's score, so each list, kept in search order, is already the order of its
 * rows that no other word holds; only the rows several words share (found with a bitmap) are
 * summed, in the query's word order as FTS5 adds its phrases' scores, and sorted. The answer
 * is a merge of those streams, stopped after `need` rows.
 */
function bestOf(lists: WordScores[], byOrdinal: Int32Array, need: number, keep?: (rows: Int32Array) => Set<number>): RankedMatches {
  const words = lists.length
  const bitmapLength = (byOrdinal.length >>> 5) + 1
  if (seen.length < bitmapLength) {
    seen = new Int32Array(bitmapLength)
    repeated = new Int32Array(bitmapLength)
  }
  // Which ordinals any word holds, and which more than one.
  let union = 0
  const shared: number[] = []
  for (let k = 0; k < words; k++) {
    if ((decoded[k]?.length ?? 0) < lists[k]!.count) decoded[k] = new Int32Array(Math.ceil(lists[k]!.count * 1.5))
    const ordinals = decoded[k]!
    unpackOrdinals(lists[k]!, ordinals)
    for (let i = 0, n = lists[k]!.count; i < n; i++) {
      const o = ordinals[i]!
      const word = o >>> 5
      const bit = 1 << (o & 31)
      if ((seen[word]! & bit) === 0) {
        seen[word]! |= bit
        union++
      } else if ((repeated[word]! & bit) === 0) {
        repeated[word]! |= bit
        shared.push(o)
      }
    }
  }
  // The shared rows' sums, adding each word's score in the query's order.
  const sharedOrdinals = Int32Array.from(shared).sort()
  const sums = new Float64Array(sharedOrdinals.length)
  if (sharedOrdinals.length > 0) {
    forEachRow(lists, (k, i, score) => {
      const o = decoded[k]![i]!
      if (bitOf(repeated, o)) sums[indexOf(sharedOrdinals, o)]! += score
    })
  }
  // The other filters, asked once about every match.
  let passing: Set<number> | undefined
  if (keep) {
    const rows = new Int32Array(union)
    let n = 0
    for (let k = 0; k < words; k++) {
      for (let i = 0; i < lists[k]!.count; i++) {
        const o = decoded[k]![i]!
        if (bitOf(seen, o)) {
          rows[n++] = byOrdinal[o - 1]!
          seen[o >>> 5]! &= ~(1 << (o & 31)) // listed once
        }
      }
    }
    passing = keep(rows)
  }
  const passes = (o: number) => passing === undefined || passing.has(byOrdinal[o - 1]!)
  const isShared = (o: number) => bitOf(repeated, o) !== 0
  let total = union
  if (passing) {
    total = 0
    forEachRow(lists, (k, i) => {
      const o = decoded[k]![i]!
      if (!isShared(o) && passes(o)) total++
    })
    for (const o of sharedOrdinals) if (passes(o)) total++
  }
  // The shared rows in order: higher sum first, then the newer.
  const sharedOrder = Array.from(sharedOrdinals.keys())
    .filter((j) => passes(sharedOrdinals[j]!))
    .sort((a, b) => sums[b]! - sums[a]! || sharedOrdinals[a]! - sharedOrdinals[b]!)

  // Merge the streams: each word's rows no other word holds, and the shared rows.
  const order = new Int32Array(Math.min(need, total))
  const at = new Int32Array(words)
  const groupOf = new Int32Array(words)
  const groupEnd = Int32Array.from(lists, (l) => l.sizes[0] ?? 0)
  let s = 0
  for (let n = 0; n < order.length; n++) {
    let bestScore = -Infinity
    let bestOrdinal = 0
    let from = -1
    for (let k = 0; k < words; k++) {
      const list = lists[k]!
      const ordinals = decoded[k]!
      let i = at[k]!
      while (i < list.count && (isShared(ordinals[i]!) || !passes(ordinals[i]!))) i++
      at[k] = i
      if (i === list.count) continue
      while (i >= groupEnd[k]!) groupEnd[k]! += list.sizes[++groupOf[k]!]!
      const score = list.scores[groupOf[k]!]!
      const o = ordinals[i]!
      if (score > bestScore || (score === bestScore && o < bestOrdinal)) {
        bestScore = score
        bestOrdinal = o
        from = k
      }
    }
    const j = sharedOrder[s]
    if (j !== undefined && (sums[j]! > bestScore || (sums[j] === bestScore && sharedOrdinals[j]! < bestOrdinal))) {
      bestOrdinal = sharedOrdinals[j]!
      s++
    } else {
      at[from]!++
    }
    order[n] = byOrdinal[bestOrdinal - 1]!
  }
  // Zero the bitmaps for the next ranking (a memset: cheaper than revisiting the rows).
  seen.fill(0, 0, bitmapLength)
  repeated.fill(0, 0, bitmapLength)
  return { order, total }
}

/** Calls visit(word, index, score) for every row of every list, word by word in the query's order. */
function forEachRow(lists: WordScores[], visit: (word: number, index: number, score: number) => void): void {
  for (let k = 0; k < lists.length; k++) {
    const { sizes, scores } = lists[k]!
    let i = 0
    for (let group = 0; group < sizes.length; group++) {
      for (let end = i + sizes[group]!; i < end; i++) visit(k, i, scores[group]!)
    }
  }
}

/** Position of a value known to be in the ascending array (binary search). */
function indexOf(sorted: Int32Array, value: number): number {
  let lo = 0
  let hi = sorted.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
