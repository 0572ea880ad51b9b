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
 * ordinal of each public row. A word's scores are cached for its public rows only (./wordScores),
 * from the word's second ask, and follow the corpus from version to version (./wordCache); a query adds its words' scores per row in the
 * query's order (as FTS5 adds its phrases' scores, from 0), then selects the best `need` rows:
 * candidates above a floor (each word's own need-th best score), the need-th best among them by
 * quickselect, the rows above it sorted, the rows tied with it taken newest first. No match is
 * left out or approximated, nothing beyond the rows asked for is sorted. The total counts every
 * match.
 *
 * A search ranked again after a write that moved only N and the mean length (no row holding its
 * words changed) is ranked from its matches' groups instead (./matchGroups): the same rows.
 */
import { VersionedValue } from '../../freshness'
import { MatchGroupCache, type RankedMatches } from './matchGroups'
import { readCorpus, updateCorpus, type Corpus } from './searchCorpus'
import { serviceReader } from '../connection'
import { CorpusSteps, WordScoreCache } from './wordCache'
import { patchWord, readWordScores, rememberTokens, rescoreWord, tokensOf, tokensOfRows } from './wordReading'
import { decodeWord, holdsAnyRow, wordScoresBytes, type WordScores } from './wordScores'

/** Word scores kept (about two bytes per public row holding a word: ./wordScores). */
const MAX_CACHED_SCORE_BYTES = 40 * 1024 * 1024
/** Words kept (and four times as many remembered as asked once). */
const MAX_CACHED_WORDS = 20_000


/** The ranker of one database file. */
export function textRanker(file: string) {
  const corpusValue = new VersionedValue<Corpus>('search_corpus')
  // The latest corpus built: the next version's is followed from it (./searchCorpus), not read whole.
  let latest: Corpus | undefined
  // What each step between corpora changed: kept words follow it (./wordCache).
  const steps = new CorpusSteps()
  // Kept from a word's second ask (its size: docs/benchmarks.md, *Measurements behind the code*), followed from corpus to corpus.
  const wordCache = new WordScoreCache(MAX_CACHED_WORDS, MAX_CACHED_SCORE_BYTES, wordScoresBytes)
  // Hot searches' matches grouped by score class, ranked again after a write without a merge.
  const groups = new MatchGroupCache()

  /** A kept word's scores at `corpus`, when no row changed since `seq` held it or holds it now. */
  const follow = (word: string, corpus: Corpus) => (scores: WordScores, seq: number): WordScores | undefined => {
    const changes = steps.between(seq, corpus.changeSeq)
    if (!changes) return undefined
    const reader = serviceReader(file)
    const tokens = tokensOf(reader, word)
    // Untouched when no changed row holds it now nor held it (a row it held was public: an approval of a pending row needs no pass over its rows).
    if (!tokens.some((t) => changes.holders.has(t)) && !holdsAnyRow(scores, changes.wasPublic)) return rescoreWord(reader, scores, corpus)
    // A phrase is FTS5's to rank: read again.
    return tokens.length === 1 ? patchWord(reader, scores, corpus, changes.rows, changes.holders.get(tokens[0]!)) : undefined
  }

  /** The corpus at `version` and each word's scores there (what a ranking reads; tests compare them with a fresh read). */
  const scores = async (version: string, words: string[]): Promise<{ corpus: Corpus; lists: WordScores[] }> => {
    const corpus = await corpusValue.get(version, async () => {
      const reader = serviceReader(file)
      const base = latest
      const next = base ? await updateCorpus(reader, base) : readCorpus(reader)
      // Followed over several turns: a build begun later may have finished first with a newer corpus.
      if (latest !== base && latest!.changeSeq >= next.changeSeq) return latest!
      if (next !== latest) steps.record(next, (rows) => tokensOfRows(reader, Array.from(rows)))
      return (latest = next)
    })
    // The query's new words tokenized together (one statement for all of them).
    rememberTokens(serviceReader(file), words)
    const lists = words.map((word) => wordCache.get(word, corpus, follow(word, corpus), () => readWordScores(serviceReader(file), corpus, word)))
    return { corpus, lists }
  }

  return {
    scores,
    /**
     * Public rows matching any word, best first: what `ORDER BY rank, approved_at DESC, id DESC`
     * over `MATCH "w1" OR "w2" …` returns, cut to `need` rows. `keep`, given the public matches,
     * says which of them pass the query's other filters.
     */
    async rank(version: string, words: string[], need: number, keep?: (rows: Int32Array) => Set<number>): Promise<RankedMatches> {
      const { corpus, lists } = await scores(version, words)
      // A hot search ranked again after a write: from its groups (./matchGroups), not its matches.
      const grouped = keep ? undefined : groups.rank(words, lists, corpus, need)
      if (grouped) return grouped
      // From here on nothing awaits, so the shared scratch buffers are this call's alone.
      const { order, total } = bestOf(lists, corpus, need, keep)
      return { order, total }
    },
  }
}

// Scratch space shared by every ranking (filled and read without awaiting in between): two
// sets of merged matches (rowid, summed score) that the words' merges alternate between, one
// word's decoded list, a copy of the scores for the selection, and the chosen matches.
let rowsA = new Int32Array(0)
let sumsA = new Float64Array(0)
let rowsB = new Int32Array(0)
let sumsB = new Float64Array(0)
let wordRows = new Int32Array(0)
let wordSums = new Float64Array(0)
let selecting = new Float64Array(0)
let chosen = new Int32Array(0)
let chosenOrdinals = new Int32Array(0)
let tiedOrdinals = new Int32Array(0)
const perClass = new Int32Array(0x100)
/** Matches whose scratch (about 50 bytes each) is kept between queries. */
const MAX_RETAINED_MATCHES = 1 << 19

/** Grows a scratch array to at least n entries (half as much again, so growth is rare). */
function atLeast<T extends Int32Array | Float64Array>(a: T, n: number): T {
  return a.length >= n ? a : (new (a.constructor as new (n: number) => T)(n + (n >> 1)))
}

/**
 * The words' lists merged by rowid (each is ascending): one sequential pass per word, each
 * row's score the sum of its words' scores in the query's order, from 0 (as FTS5 adds its
 * phrases' scores: the same doubles in the same order; 0 + s is s, scores being positive).
 * Leaves the matches in rowsA/sumsA.
 */
function mergeWords(lists: WordScores[]): number {
  let capacity = 0
  let longest = 0
  for (const l of lists) {
    capacity += l.count
    longest = Math.max(longest, l.count)
  }
  rowsA = atLeast(rowsA, capacity)
  sumsA = atLeast(sumsA, capacity)
  rowsB = atLeast(rowsB, capacity)
  sumsB = atLeast(sumsB, capacity)
  wordRows = atLeast(wordRows, longest)
  wordSums = atLeast(wordSums, longest)
  let n = 0
  for (const list of lists) {
    if (n === 0) {
      decodeWord(list, rowsA, sumsA)
      n = list.count
      continue
    }
    decodeWord(list, wordRows, wordSums)
    // Merge (rowsA, sumsA)[0, n) with the word's rows into B, then swap.
    const ra = rowsA
    const sa = sumsA
    const rb = rowsB
    const sb = sumsB
    const wr = wordRows
    const ws = wordSums
    const count = list.count
    let i = 0
    let out = 0
    for (let j = 0; j < count; j++) {
      const row = wr[j]!
      while (i < n && ra[i]! < row) {
        rb[out] = ra[i]!
        sb[out++] = sa[i++]!
      }
      rb[out] = row
      sb[out++] = i < n && ra[i] === row ? sa[i++]! + ws[j]! : ws[j]!
    }
    while (i < n) {
      rb[out] = ra[i]!
      sb[out++] = sa[i++]!
    }
    rowsA = rb
    sumsA = sb
    rowsB = ra
    sumsB = sa
    n = out
  }
  return n
}

/**
 * The k-th largest of a[0, n) (1 ≤ k ≤ n), by quickselect (Hoare's partition around a median
 * of three: equal values, which bm25's few distinct scores make common, split evenly). Reorders a.
 */
export function kthLargest(a: Float64Array, n: number, k: number): number {
  let lo = 0
  let hi = n - 1
  const target = k - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    // Median of three, descending: a[lo] >= a[mid] >= a[hi].
    if (a[mid]! > a[lo]!) swap(a, mid, lo)
    if (a[hi]! > a[lo]!) swap(a, hi, lo)
    if (a[hi]! > a[mid]!) swap(a, hi, mid)
    const pivot = a[mid]!
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i]! > pivot) i++
      while (a[j]! < pivot) j--
      if (i <= j) swap(a, i++, j--)
    }
    // [lo, j] >= pivot >= [i, hi]; between them, pivot itself.
    if (target <= j) hi = j
    else if (target >= i) lo = i
    else return pivot
  }
  return a[target]!
}

/**
 * A floor under the wanted-th best score of a query's matches: each word's own wanted-th best
 * score, from a count of its rows per score class. At least `wanted` rows hold that word with
 * that score or more, and a row's sum is never below its score in one of its words (scores are
 * positive and rounding is monotonic; a row with one word scores exactly 0 + s), so no match
 * under the floor can be among the best `wanted`. -Infinity where no word gives one.
 */
function floorOf(lists: WordScores[], wanted: number): number {
  let floor = -Infinity
  for (const list of lists) floor = Math.max(floor, wordFloor(list, wanted))
  return floor
}

/** A word's wanted-th best score, remembered with its cached list (queries ask the same `wanted`). */
const wordFloors = new WeakMap<WordScores, { wanted: number; floor: number }>()

function wordFloor(list: WordScores, wanted: number): number {
  const known = wordFloors.get(list)
  if (known?.wanted === wanted) return known.floor
  const { count, classes, classScores } = list
  let floor = -Infinity
  // A phrase-like word has a class per row: counting buys nothing there.
  if (count >= wanted && classScores.length <= 0x100) {
    perClass.fill(0, 0, classScores.length)
    for (let j = 0; j < count; j++) perClass[classes[j]!]!++
    const best = Array.from(classScores.keys()).sort((a, b) => classScores[b]! - classScores[a]!)
    let rows = 0
    for (const c of best) {
      rows += perClass[c]!
      if (rows >= wanted) {
        floor = classScores[c]!
        break
      }
    }
  }
  wordFloors.set(list, { wanted, floor })
  return floor
}

/** The matches (indexes into sums[0, total)) at or above the floor, into chosen[0, kept). */
function candidates(sums: Float64Array, total: number, floor: number): number {
  chosen = atLeast(chosen, total)
  let kept = 0
  for (let m = 0; m < total; m++) if (sums[m]! >= floor) chosen[kept++] = m
  return kept
}

/** The wanted-th best score among the matches chosen[0, kept). */
function wantedBest(sums: Float64Array, kept: number, wanted: number): number {
  selecting = atLeast(selecting, kept)
  for (let c = 0; c < kept; c++) selecting[c] = sums[chosen[c]!]!
  return kthLargest(selecting, kept, wanted)
}

/**
 * Sorts the first n matches m of `chosen` best first (higher sums[m], then the higher place,
 * that is the newer row: ./searchCorpus counts places from the oldest), moving each one's place
 * with it. Places are unique, so the order is total. A quicksort with the comparison inline (a comparator function costs more than the
 * few hundred rows sorted here).
 */
function sortBest(chosen: Int32Array, ordinals: Int32Array, n: number, sums: Float64Array): void {
  const before = (i: number, j: number) => {
    const a = sums[chosen[i]!]!
    const b = sums[chosen[j]!]!
    return a > b || (a === b && ordinals[i]! > ordinals[j]!)
  }
  const exchange = (i: number, j: number) => {
    const m = chosen[i]!
    chosen[i] = chosen[j]!
    chosen[j] = m
    const o = ordinals[i]!
    ordinals[i] = ordinals[j]!
    ordinals[j] = o
  }
  const stack: number[] = [0, n - 1]
  while (stack.length) {
    const hi = stack.pop()!
    const lo = stack.pop()!
    if (hi - lo < 16) {
      for (let i = lo + 1; i <= hi; i++) for (let j = i; j > lo && before(j, j - 1); j--) exchange(j, j - 1)
      continue
    }
    // Median of three to lo, then Lomuto's partition around it.
    const mid = (lo + hi) >>> 1
    if (before(mid, lo)) exchange(mid, lo)
    if (before(hi, lo)) exchange(hi, lo)
    if (before(hi, mid)) exchange(hi, mid)
    exchange(lo, mid)
    let last = lo
    for (let i = lo + 1; i <= hi; i++) if (before(i, lo)) exchange(++last, i)
    exchange(lo, last)
    stack.push(lo, last - 1, last + 1, hi)
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!
  a[i] = a[j]!
  a[j] = t
}

/**
 * The best `need` public rows of a query's words and their total: the words' lists merged
 * (each match's summed score), the matches the other filters drop set aside, the candidates
 * for the best `need` kept above a floor, the need-th best score among them found, the
 * matches above it sorted (score, then newest first) and the matches tied with it taken newest
 * first until `need` rows.
 */
function bestOf(lists: WordScores[], corpus: Corpus, need: number, keep?: (rows: Int32Array) => Set<number>): RankedMatches {
  const { byRow, byOrdinal } = corpus
  const matches = mergeWords(lists)
  const rows = rowsA
  const sums = sumsA
  // The other filters, asked once about every match; the matches they drop are compacted away.
  let total = matches
  if (keep) {
    const passing = keep(rows.slice(0, matches))
    total = 0
    for (let m = 0; m < matches; m++) {
      if (!passing.has(rows[m]!)) continue
      rows[total] = rows[m]!
      sums[total++] = sums[m]!
    }
  }
  const wanted = Math.min(need, total)
  const order = new Int32Array(wanted)
  if (wanted > 0) {
    // Without other filters every match counts, so the words' own scores give a floor.
    const kept = candidates(sums, total, keep ? -Infinity : floorOf(lists, wanted))
    // The score of the wanted-th best match: every match above it is in, ties with it compete.
    let threshold = Infinity
    if (wanted < kept) threshold = wantedBest(sums, kept, wanted)
    else for (let c = 0; c < kept; c++) threshold = Math.min(threshold, sums[chosen[c]!]!)
    chosenOrdinals = atLeast(chosenOrdinals, wanted)
    tiedOrdinals = atLeast(tiedOrdinals, kept)
    let above = 0
    let tied = 0
    for (let c = 0; c < kept; c++) {
      const m = chosen[c]!
      const s = sums[m]!
      if (s > threshold) {
        chosen[above] = m
        chosenOrdinals[above++] = byRow.get(2 * rows[m]!)
      } else if (s === threshold) tiedOrdinals[tied++] = byRow.get(2 * rows[m]!)
    }
    sortBest(chosen, chosenOrdinals, above, sums)
    for (let r = 0; r < above; r++) order[r] = rows[chosen[r]!]!
    // Tied rows newest first: their places descending (a native numeric sort, read from the end), as rowids.
    const ties = tiedOrdinals.subarray(0, tied).sort()
    for (let r = above, t = tied - 1; r < wanted; r++, t--) order[r] = byOrdinal.get(ties[t]! - 1)
  }
  // A query of very common words grew the per-match scratch: do not keep it.
  if (rowsA.length > MAX_RETAINED_MATCHES) {
    rowsA = rowsB = wordRows = chosen = chosenOrdinals = tiedOrdinals = new Int32Array(0)
    sumsA = sumsB = wordSums = selecting = new Float64Array(0)
  }
  return { order, total }
}
