/**
 * Relevance order for public text searches, from cached per-term scores.
 *
 * FTS5's bm25 is a sum over the query's phrases of a per-phrase score (the phrase's IDF over
 * the whole index, its frequency in the row, the row's length): the score of `a OR b` is
 * exactly score(a) + score(b), added in the same order. Scoring is what makes a search
 * expensive (a document-size lookup per match), so each term is scored once per data version
 * and every query containing it sums cached lists instead of asking FTS5 again. Ties are
 * broken as the SQL does (`approved_at DESC, id DESC`) through one per-version recency
 * ordinal per visible row, which doubles as the public-visibility test.
 */
import { VersionedCache } from '../versionedCache'
import { TABLES } from './tables'

const CONTENT = TABLES.content

type Get = (sql: string, args?: unknown[]) => unknown[] | undefined

type TermScores = { rowids: Int32Array; scores: Float64Array }

/** The public rows newest first (approved_at DESC, id DESC) and each row's place in it (1-based; 0 = not public). */
type Recency = { ordinal: Int32Array; byOrdinal: Int32Array }

/** Score lists kept per data version: about 12 bytes per (term, matching row). */
const MAX_CACHED_MATCHES = 2_000_000

// `%!.17g` prints a double with 17 exact significant digits, which parse back to the same
// double; group_concat keeps both lists in the same row order.
const TERM_SQL = `SELECT group_concat(rowid), group_concat(format('%!.17g', rank))
  FROM raw_content_fts WHERE raw_content_fts MATCH ?`

const RECENCY_SQL = `SELECT json_group_array(rowid) FROM (
  SELECT rowid FROM ${CONTENT} WHERE status = 'approved' AND is_active = 1 ORDER BY approved_at DESC, id DESC)`

const numbers = (csv: unknown): number[] => (typeof csv === 'string' && csv !== '' ? csv.split(',').map(Number) : [])

/** One FTS5 phrase for a term: quoted, so nothing in it is read as an operator. */
export const ftsPhrase = (term: string) => `"${term.replace(/"/g, '""')}"`

/** Adds b's scores into a's, both ascending by rowid: per row, a's sum so far + b's score. */
function mergeScores(a: TermScores, b: TermScores): TermScores {
  const rowids = new Int32Array(a.rowids.length + b.rowids.length)
  const scores = new Float64Array(rowids.length)
  let i = 0
  let j = 0
  let n = 0
  while (i < a.rowids.length || j < b.rowids.length) {
    const ra = i < a.rowids.length ? a.rowids[i]! : Infinity
    const rb = j < b.rowids.length ? b.rowids[j]! : Infinity
    if (ra === rb) {
      rowids[n] = ra
      scores[n++] = a.scores[i++]! + b.scores[j++]!
    } else if (ra < rb) {
      rowids[n] = ra
      scores[n++] = a.scores[i++]!
    } else {
      rowids[n] = rb
      scores[n++] = b.scores[j++]!
    }
  }
  return { rowids: rowids.subarray(0, n), scores: scores.subarray(0, n) }
}

/** The distinct values, ascending. */
function uniqueSorted(values: Float64Array): Float64Array {
  const sorted = Float64Array.from(values).sort()
  let n = 0
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i]!
  return sorted.subarray(0, n)
}

/** Position of a value known to be in the ascending array (binary search). */
function indexOf(sorted: Float64Array, value: number): number {
  let lo = 0
  let hi = sorted.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

export function textRanker(get: Get) {
  const termCache = new VersionedCache<TermScores>('search_terms', 100_000, MAX_CACHED_MATCHES, (t) => t.rowids.length + 1)
  const recencyCache = new VersionedCache<Recency>('search_recency', 1)

  const termScores = (version: string, term: string) =>
    termCache.get(version, term, () => {
      const row = get(TERM_SQL, [ftsPhrase(term)])
      return { rowids: Int32Array.from(numbers(row?.[0])), scores: Float64Array.from(numbers(row?.[1])) }
    })

  const recency = (version: string) =>
    recencyCache.get(version, '', () => {
      const byOrdinal = Int32Array.from(JSON.parse(String(get(RECENCY_SQL)?.[0] ?? '[]')) as number[])
      const ordinal = new Int32Array(byOrdinal.reduce((max, r) => (r > max ? r : max), 0) + 1)
      byOrdinal.forEach((rowid, i) => (ordinal[rowid] = i + 1))
      return { ordinal, byOrdinal }
    })

  return {
    /**
     * Publicly visible rows matching any term, best first: what
     * `ORDER BY rank, approved_at DESC, id DESC` over `MATCH "t1" OR "t2" …` returns.
     */
    async rank(version: string, terms: string[]): Promise<Int32Array> {
      const { ordinal, byOrdinal } = await recency(version)
      // Summed in the query's term order, as FTS5 adds its phrases' scores.
      let sum: TermScores | undefined
      for (const term of terms) {
        const next = await termScores(version, term)
        sum = sum ? mergeScores(sum, next) : next
      }
      if (!sum) return new Int32Array(0)
      // Sort key: (score, recency ordinal) packed into one exact double, so the sort is
      // the engine's native numeric one: the score's place among the distinct scores
      // (there are few: bm25 ties whenever term frequency and row length agree) times a
      // stride above every ordinal, plus the ordinal.
      const distinct = uniqueSorted(sum.scores)
      const stride = byOrdinal.length + 1
      const keys = new Float64Array(sum.rowids.length)
      let n = 0
      for (let i = 0; i < sum.rowids.length; i++) {
        const o = ordinal[sum.rowids[i]!]
        if (o) keys[n++] = indexOf(distinct, sum.scores[i]!) * stride + o
      }
      const sorted = keys.subarray(0, n).sort()
      const out = new Int32Array(n)
      for (let i = 0; i < n; i++) out[i] = byOrdinal[(sorted[i]! % stride) - 1]!
      return out
    },
  }
}
