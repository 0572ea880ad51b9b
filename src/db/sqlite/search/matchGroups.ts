/**
 * A hot search's matches grouped by what their scores are made of, so that ranking it again
 * after a write costs a pass over its groups instead of over its matches.
 *
 * A row's bm25 for `"w1" OR "w2" …` is the sum, in query order, of each word's score there, and
 * a word's score is one of its few score classes (./wordScores). So every match belongs to a
 * group: the class it holds of each word, or none. An approval that adds no row holding the
 * query's words moves N and the mean length: every class scores differently (./wordReading
 * rescoreWord) but no row changes group. Ranked again, a group's score is computed once (the
 * same doubles added in the same order as ./textRanking's merge: the same sum), the groups are
 * ordered, and only the rows of the groups that reach the best `need` are read, their places
 * breaking ties as ./textRanking does. At a million rows a two-word search of common words has
 * tens of thousands of matches in a few hundred groups: re-ranking it went from merging every
 * match (about a millisecond and a half, a hundred hot searches after every approval) to
 * sorting its groups.
 *
 * Kept from a query's second ranking (a first is often its last), for its words' lists as they
 * were (the same row and class arrays: a write that adds or removes one of their rows makes new
 * ones, and the groups are built again). Only the rows of the best groups are kept, enough for
 * a few times `need`; a ranking that reaches past them builds the groups again.
 */
import { cacheCounter, type CacheCounter } from '../../../platform/metrics'
import { decodeRows, type WordScores } from './wordScores'
import type { Corpus } from './searchCorpus'

export type RankedMatches = {
  /** The best public matches in relevance order, at most `need` of them. */
  order: Int32Array
  /** All public matches that pass the filter. */
  total: number
}

/** Queries kept, and the rows (4 bytes each) they may keep together. */
const MAX_QUERIES = 2_000
const MAX_KEPT_ROWS = 2_000_000
/** Rows of a query's best groups kept: this many times `need`, and at least MIN_KEPT. */
const KEPT_PER_NEED = 4
const MIN_KEPT = 4_096
/** More groups than this (words with a class per row: phrases) are not worth grouping. */
const MAX_GROUPS = 1 << 16
/** Keys numbered through a table up to this many (a megabyte); past it, through a map. */
const MAX_KEY_TABLE = 1 << 18

type Groups = {
  /** The words' lists the groups were built from (ids of their rows and classes: ./listIds). */
  from: number[]
  /** Every match. */
  total: number
  /** Per group, per word (query order), the class held, or -1. */
  classes: Int32Array
  /** Rows per group. */
  counts: Int32Array
  /** Where a group's rows start in `rows`, or -1 when they were not kept. */
  starts: Int32Array
  /** The kept groups' rows. */
  rows: Int32Array
}

/** The groups of the matches of `lists` (each ascending by row); undefined when there would be too many. */
export function groupMatches(lists: WordScores[]): Groups | undefined {
  // A group's key: each word's class + 1 (0: absent) in mixed radix.
  const radix: number[] = []
  let span = 1
  for (const l of lists) {
    radix.push(span)
    span *= l.classScores.length + 1
    if (span > 2 ** 31) return undefined
  }
  let rows = new Int32Array(0)
  let keys = new Int32Array(0)
  let n = 0
  lists.forEach((list, w) => {
    const wordRows = new Int32Array(list.count)
    decodeRows(list, wordRows)
    const { classes } = list
    const unit = radix[w]!
    const outRows = new Int32Array(n + list.count)
    const outKeys = new Int32Array(n + list.count)
    let i = 0
    let out = 0
    for (let j = 0; j < list.count; j++) {
      const row = wordRows[j]!
      while (i < n && rows[i]! < row) {
        outRows[out] = rows[i]!
        outKeys[out++] = keys[i++]!
      }
      const key = (classes[j]! + 1) * unit
      outRows[out] = row
      outKeys[out++] = i < n && rows[i] === row ? keys[i++]! + key : key
    }
    while (i < n) {
      outRows[out] = rows[i]!
      outKeys[out++] = keys[i++]!
    }
    rows = outRows
    keys = outKeys
    n = out
  })
  // Number the groups (through a table of every key while the keys are few, else a map), count
  // their rows, then lay the rows out group by group.
  const table = span <= MAX_KEY_TABLE ? new Int32Array(span).fill(-1) : undefined
  const ids = new Map<number, number>()
  const keyOf: number[] = []
  const groupOf = new Int32Array(n)
  let counts = new Int32Array(64)
  for (let m = 0; m < n; m++) {
    const key = keys[m]!
    let id = table ? table[key]! : (ids.get(key) ?? -1)
    if (id < 0) {
      id = keyOf.length
      if (id >= MAX_GROUPS) return undefined
      keyOf.push(key)
      if (table) table[key] = id
      else ids.set(key, id)
      if (id >= counts.length) {
        const grown = new Int32Array(counts.length * 2)
        grown.set(counts)
        counts = grown
      }
    }
    groupOf[m] = id
    counts[id]!++
  }
  const groups = keyOf.length
  counts = counts.slice(0, groups)
  const starts = new Int32Array(groups)
  for (let g = 1; g < groups; g++) starts[g] = starts[g - 1]! + counts[g - 1]!
  const fill = starts.slice()
  const grouped = new Int32Array(n)
  for (let m = 0; m < n; m++) grouped[fill[groupOf[m]!]!++] = rows[m]!
  const classes = new Int32Array(groups * lists.length)
  keyOf.forEach((key, id) => {
    lists.forEach((list, w) => {
      classes[id * lists.length + w] = (Math.floor(key / radix[w]!) % (list.classScores.length + 1)) - 1
    })
  })
  return { from: lists.map(listId), total: n, classes, counts, starts, rows: grouped }
}

/** Each group's score for the lists' current class scores, and the groups best first. */
function scoredGroups(g: Groups, lists: WordScores[]): { scores: Float64Array; best: Int32Array } {
  const words = lists.length
  const count = g.counts.length
  const scores = new Float64Array(count)
  for (let id = 0; id < count; id++) {
    // As the merge adds them: the first word present, then each next one present.
    let s = 0
    let first = true
    for (let w = 0; w < words; w++) {
      const c = g.classes[id * words + w]!
      if (c < 0) continue
      const v = lists[w]!.classScores[c]!
      s = first ? v : s + v
      first = false
    }
    scores[id] = s
  }
  const best = new Int32Array(count)
  for (let id = 0; id < count; id++) best[id] = id
  best.sort((a, b) => scores[b]! - scores[a]!)
  return { scores, best }
}

/**
 * The best `need` matches from the groups, as ./textRanking's bestOf orders them (score, then the
 * newer row; the rows tied with the need-th best taken newest first); undefined when a group it
 * needs was not kept.
 */
export function rankGroups(g: Groups, lists: WordScores[], corpus: Corpus, need: number, scored = scoredGroups(g, lists)): RankedMatches | undefined {
  const { byRow, byOrdinal } = corpus
  const wanted = Math.min(need, g.total)
  const order = new Int32Array(wanted)
  if (wanted === 0) return { order, total: g.total }
  const { scores, best } = scored
  // The need-th best score: the groups above it are all in, the groups at it compete.
  let reached = 0
  let k = 0
  while (reached < wanted) reached += g.counts[best[k++]!]!
  const threshold = scores[best[k - 1]!]!
  let above = 0
  let end = 0
  for (; end < best.length && scores[best[end]!]! >= threshold; end++) {
    if (g.starts[best[end]!]! < 0) return undefined
    if (scores[best[end]!]! > threshold) above += g.counts[best[end]!]!
  }
  // The rows above, best first, then the newer (a higher place).
  const aboveRows = new Int32Array(above)
  const aboveScores = new Float64Array(above)
  const tiedPlaces: number[] = []
  let a = 0
  for (let e = 0; e < end; e++) {
    const id = best[e]!
    const from = g.starts[id]!
    const to = from + g.counts[id]!
    if (scores[id]! > threshold) {
      for (let r = from; r < to; r++) {
        aboveRows[a] = g.rows[r]!
        aboveScores[a++] = scores[id]!
      }
    } else for (let r = from; r < to; r++) tiedPlaces.push(byRow.get(2 * g.rows[r]!))
  }
  const byRank = Array.from({ length: above }, (_, i) => i).sort(
    (i, j) => aboveScores[j]! - aboveScores[i]! || byRow.get(2 * aboveRows[j]!) - byRow.get(2 * aboveRows[i]!),
  )
  for (let r = 0; r < above; r++) order[r] = aboveRows[byRank[r]!]!
  // Tied rows newest first.
  const ties = Int32Array.from(tiedPlaces).sort()
  for (let r = above, t = ties.length - 1; r < wanted; r++, t--) order[r] = byOrdinal.get(ties[t]! - 1)
  return { order, total: g.total }
}

/** The groups with only the rows of the best groups (`best`, best first) kept, enough for `need` several times over. */
function trimmed(g: Groups, best: Int32Array, need: number): Groups {
  const keep = Math.max(KEPT_PER_NEED * need, MIN_KEPT)
  const starts = new Int32Array(g.counts.length).fill(-1)
  let size = 0
  for (let k = 0; k < best.length && size < keep; k++) size += g.counts[best[k]!]!
  const rows = new Int32Array(size)
  let at = 0
  for (let k = 0; k < best.length && at < size; k++) {
    const id = best[k]!
    rows.set(g.rows.subarray(g.starts[id]!, g.starts[id]! + g.counts[id]!), at)
    starts[id] = at
    at += g.counts[id]!
  }
  return { ...g, starts, rows }
}

/**
 * A list's rows and classes as a number: the same arrays (a rescored list shares them), the same
 * number. Numbers, not the arrays, so that kept groups do not hold lists the word cache has let go.
 */
const ids = new WeakMap<Uint8Array, number>()
let lastId = 0
function listId(list: WordScores): number {
  let id = ids.get(list.gaps)
  if (id === undefined) ids.set(list.gaps, (id = ++lastId))
  return id
}

const builtFrom = (g: Groups, lists: WordScores[]) => g.from.length === lists.length && g.from.every((id, w) => id === listId(lists[w]!))

/** Hot queries' groups, least recent evicted. */
export class MatchGroupCache {
  private readonly entries = new Map<string, Groups>()
  private readonly askedOnce = new Set<string>()
  private rows = 0
  private readonly lookups: CacheCounter = cacheCounter('search_match_groups')

  /** The query's best `need` matches from its groups, built when due; undefined: rank it by merging. */
  rank(words: string[], lists: WordScores[], corpus: Corpus, need: number): RankedMatches | undefined {
    if (this.lookups.off) {
      this.lookups.miss(corpus.changeSeq)
      return undefined
    }
    const key = words.join('\u0000')
    const kept = this.entries.get(key)
    if (kept && builtFrom(kept, lists)) {
      const ranked = rankGroups(kept, lists, corpus, need)
      if (ranked) {
        this.lookups.hit(corpus.changeSeq)
        this.entries.delete(key)
        this.entries.set(key, kept)
        return ranked
      }
    }
    this.lookups.miss(corpus.changeSeq)
    if (!kept && !this.askedOnce.delete(key)) {
      if (this.askedOnce.size >= 4 * MAX_QUERIES) this.askedOnce.delete(this.askedOnce.values().next().value!)
      this.askedOnce.add(key)
      return undefined
    }
    const groups = groupMatches(lists)
    if (!groups) return undefined
    const scored = scoredGroups(groups, lists)
    this.keep(key, trimmed(groups, scored.best, need))
    return rankGroups(groups, lists, corpus, need, scored)
  }

  private keep(key: string, g: Groups): void {
    const old = this.entries.get(key)
    if (old) {
      this.entries.delete(key)
      this.rows -= old.rows.length + old.counts.length
    }
    const size = g.rows.length + g.counts.length
    if (size > MAX_KEPT_ROWS) return
    while (this.entries.size >= MAX_QUERIES || this.rows + size > MAX_KEPT_ROWS) {
      const [oldest, entry] = this.entries.entries().next().value!
      this.entries.delete(oldest)
      this.rows -= entry.rows.length + entry.counts.length
    }
    this.entries.set(key, g)
    this.rows += size
  }
}
