/**
 * Reading one query word's scores from the text index (./textRanking explains the ranking):
 * its rows and weighted counts straight from FTS5's index pages (./ftsPostings; FTS5's
 * instance vocabulary when the pages are in a layout that reader does not know), and each
 * public row's score by FTS5's bm25 expression with the columns' weights, from the corpus's
 * row lengths (./wordScores). The temporary tables it reads through are made on the
 * connection on first use.
 */
import { FTS_COLUMNS, FTS_TABLE, FTS_TOKENIZE, FTS_WEIGHTS } from '../contentSchema'
import { parseIntegers } from './commaLists'
import { readPostings, type Postings } from './ftsPostings'
import { LENGTH_IN_BY_ROW, type WordCorpus } from './searchCorpus'
import type { SqlReader } from '../connection'
import { TABLES } from '../tables'
import { rowsOf, withClassScores, wordScoresOf, type WordScores } from './wordScores'

// FTS5's bm25 constants (fts5_aux.c).
const K1 = 1.2
const B = 0.75
const K1_PLUS_1 = K1 + 1.0
/** FTS5's floor for a word in more than half the rows. */
const MIN_IDF = 1e-6
/** Words whose tokens are remembered (tokenizing does not depend on the data). */
const MAX_REMEMBERED_WORDS = 20_000

/** One FTS5 phrase for a word: quoted, so nothing in it is read as an operator. */
export const ftsPhrase = (term: string) => `"${term.replace(/"/g, '""')}"`

const TEMP_TABLES = `
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_content_fts_instances USING fts5vocab(main, ${FTS_TABLE}, instance);
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_fts_tokenizer USING fts5(text, tokenize = ${FTS_TOKENIZE});
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_fts_tokenizer_terms USING fts5vocab(temp, raw_fts_tokenizer, instance);
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_fts_rows USING fts5(${FTS_COLUMNS.join(', ')}, tokenize = ${FTS_TOKENIZE});
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_fts_rows_instances USING fts5vocab(temp, raw_fts_rows, instance);`

// `%!.17g` prints a double with 17 significant digits, which parse back to the same double.
const PHRASE_SQL = `SELECT json_group_array(rowid), json_group_array(format('%!.17g', rank))
  FROM ${FTS_TABLE} WHERE ${FTS_TABLE} MATCH ?`
// One entry per occurrence, row × columns + column: a comma list is cheaper than JSON (./commaLists).
const COLUMN_OF = `CASE col ${FTS_COLUMNS.map((c, i) => `WHEN '${c}' THEN ${i}`).join(' ')} END`
const OCCURRENCES_SQL = `SELECT group_concat(doc * ${FTS_COLUMNS.length} + ${COLUMN_OF}) FROM temp.raw_content_fts_instances WHERE term = ?`
// The same expression FTS5 evaluates, with the same C log.
const IDF_SQL = 'SELECT ln((?1 - ?2 + 0.5) / (?2 + 0.5))'

const prepared = new WeakSet<object>()
const remembered = new Map<string, string[]>()

function prepare(db: SqlReader): void {
  if (!prepared.has(db.handle)) {
    // Temporary tables live on the connection: made again if it was reopened.
    db.exec(TEMP_TABLES)
    prepared.add(db.handle)
  }
}

/** The tokens FTS5 makes of a word (stemmed, folded): tokenized by a scratch index of the same kind. */
export function tokensOf(db: SqlReader, word: string): string[] {
  const known = remembered.get(word)
  if (known) return known
  rememberTokens(db, [word])
  return remembered.get(word)!
}

/**
 * Tokenizes the words not yet remembered, all in one pass of the scratch index: written inside a
 * savepoint and rolled back, so the index stays empty (FTS5 reads its pending rows within the
 * transaction; a delete would instead leave entries for it to merge away).
 */
export function rememberTokens(db: SqlReader, words: readonly string[]): void {
  const unknown = [...new Set(words)].filter((w) => !remembered.has(w))
  if (unknown.length === 0) return
  prepare(db)
  const tokens = unknown.map((): string[] => [])
  db.exec('SAVEPOINT tokenizing')
  try {
    db.run('INSERT INTO temp.raw_fts_tokenizer(rowid, text) SELECT key + 1, value FROM json_each(?)', [JSON.stringify(unknown)])
    for (const [doc, term] of db.all('SELECT doc, term FROM temp.raw_fts_tokenizer_terms ORDER BY doc, offset')) {
      tokens[Number(doc) - 1]!.push(String(term))
    }
  } finally {
    db.exec('ROLLBACK TO tokenizing')
    db.exec('RELEASE tokenizing')
  }
  if (remembered.size + unknown.length > MAX_REMEMBERED_WORDS) remembered.clear()
  unknown.forEach((word, i) => remembered.set(word, tokens[i]!))
}

/** Per token, the rows holding it and each one's weighted count F (the columns' weights summed per occurrence). */
export type RowTokens = Map<string, Map<number, number>>

/**
 * The tokens of these content rows' indexed text as it is now (a deleted row has none), with
 * each row's weighted count, by a scratch index of the same columns and tokenizer, rolled
 * back: which words' rows a write changed, and what those rows now add to each word.
 */
export function tokensOfRows(db: SqlReader, rowids: readonly number[]): RowTokens {
  const out: RowTokens = new Map()
  if (rowids.length === 0) return out
  prepare(db)
  db.exec('SAVEPOINT tokenizing')
  try {
    db.run(
      `INSERT INTO temp.raw_fts_rows(rowid, ${FTS_COLUMNS.join(', ')})
       SELECT c.rowid, c.title, coalesce(c.description, '') FROM json_each(?) j JOIN ${TABLES.content} c ON c.rowid = j.value`,
      [JSON.stringify(rowids)],
    )
    for (const [term, doc, column] of db.all(`SELECT term, doc, ${COLUMN_OF} FROM temp.raw_fts_rows_instances`)) {
      const token = String(term)
      let rows = out.get(token)
      if (!rows) out.set(token, (rows = new Map()))
      rows.set(Number(doc), (rows.get(Number(doc)) ?? 0) + FTS_WEIGHTS[Number(column)]!)
    }
  } finally {
    db.exec('ROLLBACK TO tokenizing')
    db.exec('RELEASE tokenizing')
  }
  return out
}

/** A token's postings through FTS5's instance vocabulary (one SQL row per occurrence): the slow, sure way. */
export function readVocabularyPostings(db: SqlReader, token: string): Postings {
  prepare(db)
  const columns = FTS_COLUMNS.length
  const all = parseIntegers(String(db.get(OCCURRENCES_SQL, [token])?.[0] ?? ''))
  const rows = new Int32Array(all.length)
  const weighted = new Float64Array(all.length)
  let n = -1
  for (let i = 0; i < all.length; i++) {
    const row = Math.floor(all[i]! / columns)
    if (n < 0 || rows[n] !== row) rows[++n] = row
    weighted[n]! += FTS_WEIGHTS[all[i]! % columns]!
  }
  return { rows: rows.subarray(0, n + 1), weighted: weighted.subarray(0, n + 1), count: n + 1 }
}

// Scratch for the rows being scored (a word's cached form is copied out of it).
let kept = new Int32Array(0)
let publicLengths = new Int32Array(0)
let classes = new Int32Array(0)
/** Weighted counts below this get a class table by index (the common case: 1, 3, 4, 6 …). */
const SMALL_COUNTS = 64

/** FTS5's IDF of a phrase in n of N rows, by the same expression with the same C log (floored as FTS5 does). */
function idfOf(db: SqlReader, rows: number, n: number): number {
  const computed = Number(db.get(IDF_SQL, [rows, n])?.[0])
  return computed > 0 ? computed : MIN_IDF
}

/** fts5Bm25Function's expression for one phrase in one row: F its weighted count, D the row's length. */
const bm25 = (idf: number, f: number, d: number, avgdl: number) => idf * ((f * K1_PLUS_1) / (f + K1 * (1 - B + (B * d) / avgdl)))

/**
 * A word's scores at another corpus whose changes did not touch the word's rows (N and the mean
 * length moved, n and each row's F and D did not): each class scored again, nothing read but the
 * IDF. The same doubles as reading the word again (test/db/wordFollowing.test.ts).
 */
export function rescoreWord(db: SqlReader, w: WordScores, corpus: Pick<WordCorpus, 'rows' | 'avgdl'>): WordScores | undefined {
  if (!w.basis) return undefined
  const { n, f, d } = w.basis
  const idf = idfOf(db, corpus.rows, n)
  const classScores = new Float64Array(f.length)
  for (let c = 0; c < f.length; c++) classScores[c] = bm25(idf, f[c]!, d[c]!, corpus.avgdl)
  return withClassScores(w, classScores)
}

/**
 * A one-token word's scores at another corpus whose changes touched its rows: the changed rows
 * (`changed`, ascending) taken out, those public now and holding the token put back with their
 * weighted count (`holders`, row → F) and length, n counted again, every class scored again for
 * the new N, n and mean length. Nothing read from the index: the same doubles as reading the
 * word again (test/db/wordFollowing.test.ts), in microseconds per changed row and a pass over
 * the word's rows instead of milliseconds.
 */
export function patchWord(db: SqlReader, w: WordScores, corpus: WordCorpus, changed: Int32Array, holders: ReadonlyMap<number, number> | undefined): WordScores | undefined {
  if (!w.basis) return undefined
  const f = Array.from(w.basis.f)
  const d = Array.from(w.basis.d)
  const classOf = new Map<string, number>()
  const classFor = (cf: number, cd: number) => {
    if (classOf.size === 0) f.forEach((x, c) => classOf.set(`${x}:${d[c]}`, c))
    let c = classOf.get(`${cf}:${cd}`)
    if (c === undefined) {
      c = f.push(cf) - 1
      d.push(cd)
      classOf.set(`${cf}:${cd}`, c)
    }
    return c
  }
  const oldRows = rowsOf(w)
  const rows = new Int32Array(oldRows.length + changed.length)
  const classes = new Int32Array(rows.length)
  let n = 0
  let k = 0
  const addChanged = (row: number) => {
    const weighted = holders?.get(row)
    const length = corpus.byRow.get(2 * row + 1)
    // Public now and holding the token: back in with what it holds now.
    if (weighted === undefined || !(corpus.byRow.get(2 * row) > 0) || length === 0) return
    rows[n] = row
    classes[n++] = classFor(weighted, length)
  }
  for (let i = 0; i < oldRows.length; i++) {
    const row = oldRows[i]!
    while (k < changed.length && changed[k]! < row) addChanged(changed[k++]!)
    if (k < changed.length && changed[k] === row) {
      addChanged(changed[k++]!)
      continue
    }
    rows[n] = row
    classes[n++] = w.classes[i]!
  }
  while (k < changed.length) addChanged(changed[k++]!)
  const idf = idfOf(db, corpus.rows, n)
  const classScores = f.map((cf, c) => bm25(idf, cf, d[c]!, corpus.avgdl))
  return wordScoresOf(rows, classes, classScores, n, { n, f: Float64Array.from(f), d: Int32Array.from(d) })
}

/** A word's score for each public row holding it. */
export function readWordScores(db: SqlReader, corpus: WordCorpus, word: string): WordScores {
  const tokens = tokensOf(db, word)
  if (tokens.length !== 1) return readPhrase(db, corpus, word)
  const postings = readPostings(db, tokens[0]!, FTS_WEIGHTS) ?? readVocabularyPostings(db, tokens[0]!)
  return scorePostings(db, corpus, postings)
}

/** The public rows of a token's postings with their bm25 scores. */
export function scorePostings(db: SqlReader, corpus: WordCorpus, { rows, weighted, count: n }: Postings): WordScores {
  const { byRow, publicLength, avgdl, longest } = corpus
  const idf = idfOf(db, corpus.rows, n)
  if (kept.length < n) {
    kept = new Int32Array(n + (n >> 1))
    publicLengths = new Int32Array(kept.length)
    classes = new Int32Array(kept.length)
  }
  // Each row's public length first, in a loop of loads alone: the rows are scattered over the
  // corpus, and independent loads let the processor overlap their misses.
  const known = publicLength.length
  for (let i = 0; i < n; i++) {
    const row = rows[i]!
    publicLengths[i] = row < known ? publicLength[row]! : 0
  }
  // The score depends on (F, D) only, F the weighted count: one class per pair seen, found
  // through a table per F indexed by D.
  const classScores: number[] = []
  const classF: number[] = []
  const classD: number[] = []
  const small: (Int32Array | undefined)[] = []
  const other = new Map<number, Int32Array>()
  const tableOf = (f: number) => {
    let table = Number.isInteger(f) && f < SMALL_COUNTS ? small[f] : other.get(f)
    if (!table) {
      table = new Int32Array(longest + 1).fill(-1)
      if (Number.isInteger(f) && f < SMALL_COUNTS) small[f] = table
      else other.set(f, table)
    }
    return table
  }
  let count = 0
  for (let i = 0; i < n; i++) {
    let d = publicLengths[i]!
    if (d === 0) continue // not public (or newer than the corpus)
    if (d === LENGTH_IN_BY_ROW) d = byRow.get(2 * rows[i]! + 1)
    const f = weighted[i]!
    const table = (f < SMALL_COUNTS && small[f]) || tableOf(f)
    let c = table[d]!
    if (c < 0) {
      c = table[d] = classScores.length
      classScores.push(bm25(idf, f, d, avgdl))
      classF.push(f)
      classD.push(d)
    }
    kept[count] = rows[i]!
    classes[count++] = c
  }
  // Followed to later corpora only when every row holding the word was in this one (the index
  // ran ahead of the corpus otherwise, and a later change to such a row could go unseen).
  const basis = count === n ? { n, f: Float64Array.from(classF), d: Int32Array.from(classD) } : undefined
  const scores = wordScoresOf(kept, classes, classScores, count, basis)
  if (kept.length > 1 << 20) kept = publicLengths = classes = new Int32Array(0) // a very common word: do not keep its scratch
  return scores
}

/** A word FTS5 makes several tokens of (a phrase), or none: FTS5 ranks it alone (rank = −score, weights included). */
function readPhrase(db: SqlReader, corpus: WordCorpus, word: string): WordScores {
  const { byRow } = corpus
  const row = db.get(PHRASE_SQL, [ftsPhrase(word)])
  const matches = JSON.parse(String(row?.[0] ?? '[]')) as number[]
  const ranks = JSON.parse(String(row?.[1] ?? '[]')) as string[]
  const rowsOut = new Int32Array(matches.length)
  const classesOut = new Int32Array(matches.length)
  const classScores: number[] = []
  let kept = 0
  matches.forEach((r, i) => {
    const o = byRow.get(2 * r)
    if (o === 0) return
    rowsOut[kept] = r
    classesOut[kept++] = classScores.push(-Number(ranks[i])) - 1
  })
  return wordScoresOf(rowsOut, classesOut, classScores, kept)
}
