/**
 * Relevance order for public text searches: FTS5's bm25, computed here from the index's own
 * parts instead of asking FTS5 to rank every match.
 *
 * FTS5's bm25 (fts5_aux.c) of a row for `"w1" OR "w2" …` is minus the sum, in query order, of
 * each phrase's IDF · f·(k1+1) / (f + k1·(1 − b + b·D/avgdl)), where IDF = ln((N − n + 0.5) /
 * (n + 0.5)) (1e-6 when not positive), N is the index's row count, n the rows holding the
 * phrase, f its occurrences in the row, D the row's length in tokens and avgdl the mean length.
 * What makes FTS5's rank slow is D: one docsize lookup per match (9 ms for a word in 15,000 of
 * a million rows). Here every row's length is read once per data version into one array, and a
 * word's rows and counts come from the index's instance vocabulary (1.3 ms for the same word).
 * The same arithmetic in the same order on the same doubles gives the same scores bit for bit;
 * the logarithm is SQLite's ln(), the C library's log that FTS5 calls.
 * test/content/ranking.test.ts holds the result to FTS5's ORDER BY rank, row by row.
 *
 * Ties are broken as the SQL does (`approved_at DESC, id DESC`) through one per-version recency
 * ordinal per public row. A word's scores are cached per data version for its public rows only,
 * keyed by that ordinal and packed (./wordScores), so a query reads its words' lists
 * sequentially and merges them; only the first `need` rows are put in order (a bounded heap),
 * while the total counts them all.
 */
import { VersionedCache, VersionedValue } from '../versionedCache'
import { connection, statement } from './connection'
import { FTS_COLUMNS, FTS_TABLE, FTS_TOKENIZE } from './contentSchema'
import { packWordScores, unpackOrdinals, wordScoresBytes, type WordScores } from './wordScores'
import { TABLES } from './tables'

const CONTENT = TABLES.content

// FTS5's bm25 constants (fts5_aux.c).
const K1 = 1.2
const B = 0.75
const K1_PLUS_1 = K1 + 1.0
/** FTS5's floor for a word in more than half the rows. */
const MIN_IDF = 1e-6

/** Word scores kept per data version (about two bytes per public row holding a word). */
const MAX_CACHED_SCORE_BYTES = 40 * 1024 * 1024
/** Words whose tokens are remembered (tokenizing does not depend on the data). */
const MAX_REMEMBERED_WORDS = 20_000

/** What the ranking needs of the whole index at one data version. */
type Corpus = {
  /** N: rows in the index. */
  rows: number
  avgdl: number
  /**
   * Per rowid, two entries: the row's place newest first among public rows (1-based; 0 = not
   * public) and D, its length in tokens. Side by side, so a word's rows cost one cache miss each.
   */
  byRow: Int32Array
  /** The largest D. */
  longest: number
  /** Public rowids, newest first (approved_at DESC, id DESC). */
  byOrdinal: Int32Array
}

export type RankedMatches = {
  /** The best public matches in relevance order, at most `need` of them. */
  order: Int32Array
  /** All public matches that pass the filter. */
  total: number
}

/** One FTS5 phrase for a word: quoted, so nothing in it is read as an operator. */
export const ftsPhrase = (term: string) => `"${term.replace(/"/g, '""')}"`

const TEMP_TABLES = `
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_content_fts_instances USING fts5vocab(main, ${FTS_TABLE}, instance);
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_fts_tokenizer USING fts5(text, tokenize = ${FTS_TOKENIZE});
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_fts_tokenizer_terms USING fts5vocab(temp, raw_fts_tokenizer, instance);`

// `%!.17g` prints a double with 17 significant digits, which parse back to the same double.
const PHRASE_SQL = `SELECT json_group_array(rowid), json_group_array(format('%!.17g', rank))
  FROM ${FTS_TABLE} WHERE ${FTS_TABLE} MATCH ?`
// A comma list: cheaper for SQLite to build than JSON, and as cheap to read (parseOccurrences).
const OCCURRENCES_SQL = 'SELECT group_concat(doc) FROM temp.raw_content_fts_instances WHERE term = ?'
// The same expression FTS5 evaluates, with the same C log.
const IDF_SQL = 'SELECT ln((?1 - ?2 + 0.5) / (?2 + 0.5))'
const AVERAGES_SQL = `SELECT block FROM ${FTS_TABLE}_data WHERE id = 1`
const LENGTHS_SQL = `SELECT min(id), max(id), (SELECT group_concat(hex(sz), '') FROM (SELECT sz FROM ${FTS_TABLE}_docsize ORDER BY id))
  FROM ${FTS_TABLE}_docsize`
const LENGTH_IDS_SQL = `SELECT json_group_array(id) FROM (SELECT id FROM ${FTS_TABLE}_docsize ORDER BY id)`
const RECENCY_SQL = `SELECT json_group_array(rowid) FROM (
  SELECT rowid FROM ${CONTENT} WHERE status = 'approved' AND is_active = 1 ORDER BY approved_at DESC, id DESC)`

/** SQLite's varint (FTS5 stores its sizes in them): big-endian 7-bit groups, a 9th byte of 8. */
function readVarint(bytes: ArrayLike<number>, at: number): [value: number, next: number] {
  let value = 0
  for (let i = 0; i < 8; i++) {
    const byte = bytes[at + i]!
    value = value * 128 + (byte & 127)
    if (byte < 128) return [value, at + i + 1]
  }
  return [value * 256 + bytes[at + 8]!, at + 9]
}

/**
 * The rows of a comma list with one entry per occurrence (ascending, so a row's occurrences
 * are adjacent), each once, and how often it occurs.
 */
export function parseOccurrences(csv: string): { rows: Int32Array; counts: Int32Array } {
  let commas = 0
  for (let i = 0; i < csv.length; i++) if (csv.charCodeAt(i) === 44) commas++
  const size = csv.length === 0 ? 0 : commas + 1
  const rows = new Int32Array(size)
  const counts = new Int32Array(size)
  let n = -1
  let value = 0
  for (let i = 0; i <= csv.length; i++) {
    const c = i < csv.length ? csv.charCodeAt(i) : 44
    if (c !== 44) {
      value = value * 10 + (c - 48)
      continue
    }
    if (n >= 0 && rows[n] === value) counts[n]!++
    else {
      rows[++n] = value
      counts[n] = 1
    }
    value = 0
  }
  return { rows: rows.subarray(0, n + 1), counts: counts.subarray(0, n + 1) }
}

export function textRanker(file: string) {
  const get = (sql: string, args: unknown[] = []): unknown[] | undefined => {
    const stmt = statement(file, sql)
    return (stmt.get as (...a: unknown[]) => unknown[] | undefined).apply(stmt, args)
  }
  const prepared = new WeakSet<object>()
  /** The temporary tables live on the connection: made again if it was reopened. */
  const ensureTempTables = () => {
    const db = connection(file)
    if (prepared.has(db)) return
    db.exec(TEMP_TABLES)
    prepared.add(db)
  }

  const corpusValue = new VersionedValue<Corpus>('search_corpus')
  const wordCache = new VersionedCache<WordScores>('search_terms', 100_000, MAX_CACHED_SCORE_BYTES, wordScoresBytes)
  const remembered = new Map<string, string[]>()

  /** The tokens FTS5 makes of a word (stemmed, folded): tokenized by a scratch index of the same kind. */
  const tokensOf = (word: string): string[] => {
    const known = remembered.get(word)
    if (known) return known
    ensureTempTables()
    statement(file, 'INSERT INTO temp.raw_fts_tokenizer(rowid, text) VALUES (1, ?)').run(word)
    const rows = statement(file, 'SELECT term FROM temp.raw_fts_tokenizer_terms ORDER BY offset').all() as unknown[][]
    statement(file, 'DELETE FROM temp.raw_fts_tokenizer').run()
    const tokens = rows.map((r) => String(r[0]))
    if (remembered.size >= MAX_REMEMBERED_WORDS) remembered.clear()
    remembered.set(word, tokens)
    return tokens
  }

  const readCorpus = async (): Promise<Corpus> => {
    // N and the total length: FTS5's averages record (varints: rows, then tokens per column).
    const averages = get(AVERAGES_SQL)?.[0] as Uint8Array | undefined
    let rows = 0
    let tokens = 0
    if (averages) {
      let at: number
      ;[rows, at] = readVarint(averages, 0)
      while (at < averages.length) {
        let columnTokens: number
        ;[columnTokens, at] = readVarint(averages, at)
        tokens += columnTokens
      }
    }
    // D per row: the docsize blobs (a varint per column), summed.
    const [minId, maxId, hex] = get(LENGTHS_SQL) ?? []
    // One hex string for all rows: a million blobs stepped one by one would take a second.
    const sizes = Buffer.from(String(hex ?? ''), 'hex')
    const lengths = new Int32Array(Math.floor(sizes.length / FTS_COLUMNS.length))
    let count = 0
    let longest = 0
    for (let at = 0; at < sizes.length; ) {
      let d = 0
      for (let c = 0; c < FTS_COLUMNS.length; c++) {
        let n: number
        ;[n, at] = readVarint(sizes, at)
        d += n
      }
      lengths[count++] = d
      if (d > longest) longest = d
    }
    // Rowids are dense in practice (content is never deleted); read them only when they are not.
    const ids =
      count === 0 || Number(maxId) - Number(minId) + 1 === count
        ? undefined
        : (JSON.parse(String(get(LENGTH_IDS_SQL)?.[0] ?? '[]')) as number[])
    const rowidOf = (i: number) => (ids ? ids[i]! : Number(minId) + i)
    const byOrdinal = Int32Array.from(JSON.parse(String(get(RECENCY_SQL)?.[0] ?? '[]')) as number[])
    let lastRow = count === 0 ? 0 : rowidOf(count - 1)
    for (const rowid of byOrdinal) if (rowid > lastRow) lastRow = rowid
    const byRow = new Int32Array(2 * (lastRow + 1))
    for (let i = 0; i < count; i++) byRow[2 * rowidOf(i) + 1] = lengths[i]!
    byOrdinal.forEach((rowid, i) => (byRow[2 * rowid] = i + 1))
    return { rows, avgdl: tokens / rows, byRow, longest, byOrdinal }
  }

  /** A word's score for each public row holding it. */
  const readWord = (corpus: Corpus, word: string): WordScores => {
    const tokens = tokensOf(word)
    if (tokens.length !== 1) return readPhrase(corpus, word)
    const { byRow, avgdl, longest } = corpus
    const { rows: matched, counts } = parseOccurrences(String(get(OCCURRENCES_SQL, [tokens[0]])?.[0] ?? ''))
    const n = matched.length
    const computed = Number(get(IDF_SQL, [corpus.rows, n])?.[0])
    const idf = computed > 0 ? computed : MIN_IDF
    // The score depends on (f, D) only: one class per pair seen (f = 1, nearly every row, by D).
    const classScores: number[] = []
    const classOf = (f: number, d: number) => {
      classScores.push(idf * ((f * K1_PLUS_1) / (f + K1 * (1 - B + (B * d) / avgdl)))) // fts5Bm25Function's expression
      return classScores.length - 1
    }
    const once = new Int32Array(longest + 1).fill(-1)
    const repeated = new Map<string, number>()
    const ordinals = new Int32Array(n)
    const classes = new Int32Array(n)
    let kept = 0
    for (let i = 0; i < n; i++) {
      const row = matched[i]!
      const f = counts[i]!
      const o = 2 * row < byRow.length ? byRow[2 * row]! : 0
      if (o === 0) continue
      const d = byRow[2 * row + 1]!
      let c: number
      if (f === 1) {
        c = once[d]!
        if (c < 0) c = once[d] = classOf(1, d)
      } else {
        c = repeated.get(`${f}:${d}`) ?? -1
        if (c < 0) repeated.set(`${f}:${d}`, (c = classOf(f, d)))
      }
      ordinals[kept] = o
      classes[kept++] = c
    }
    return packWordScores(ordinals, classes, classScores, kept)
  }

  /** A word FTS5 makes several tokens of (a phrase), or none: FTS5 ranks it alone (rank = −score). */
  const readPhrase = (corpus: Corpus, word: string): WordScores => {
    const { byRow } = corpus
    const row = get(PHRASE_SQL, [ftsPhrase(word)])
    const matches = JSON.parse(String(row?.[0] ?? '[]')) as number[]
    const ranks = JSON.parse(String(row?.[1] ?? '[]')) as string[]
    const ordinals = new Int32Array(matches.length)
    const classes = new Int32Array(matches.length)
    const classScores: number[] = []
    let kept = 0
    matches.forEach((r, i) => {
      const o = 2 * r < byRow.length ? byRow[2 * r]! : 0
      if (o === 0) return
      ordinals[kept] = o
      classes[kept++] = classScores.push(-Number(ranks[i])) - 1
    })
    return packWordScores(ordinals, classes, classScores, kept)
  }

  return {
    /**
     * Public rows matching any word, best first: what `ORDER BY rank, approved_at DESC, id DESC`
     * over `MATCH "w1" OR "w2" …` returns, cut to `need` rows. `keep`, given the public matches,
     * says which of them pass the query's other filters.
     */
    async rank(version: string, words: string[], need: number, keep?: (rows: Int32Array) => Set<number>): Promise<RankedMatches> {
      const corpus = await corpusValue.get(version, readCorpus)
      const lists: WordScores[] = []
      for (const word of words) lists.push(await wordCache.get(version, word, () => readWord(corpus, word)))
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
