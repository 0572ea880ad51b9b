/**
 * Reading one query word's scores from the text index (./textRanking explains the ranking):
 * its rows and counts from the index's instance vocabulary, each public row's score by FTS5's
 * bm25 expression from the corpus's row lengths, packed in search order (./wordScores). The
 * temporary tables it reads through are made on the connection on first use.
 */
import { FTS_TABLE, FTS_TOKENIZE } from './contentSchema'
import { parseOccurrences } from './commaLists'
import type { WordCorpus } from './searchCorpus'
import type { SqlReader } from './sqlReader'
import { packWordScores, type WordScores } from './wordScores'

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
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.raw_fts_tokenizer_terms USING fts5vocab(temp, raw_fts_tokenizer, instance);`

// `%!.17g` prints a double with 17 significant digits, which parse back to the same double.
const PHRASE_SQL = `SELECT json_group_array(rowid), json_group_array(format('%!.17g', rank))
  FROM ${FTS_TABLE} WHERE ${FTS_TABLE} MATCH ?`
// A comma list: cheaper for SQLite to build than JSON, and as cheap to read (parseOccurrences).
const OCCURRENCES_SQL = 'SELECT group_concat(doc) FROM temp.raw_content_fts_instances WHERE term = ?'
// The same expression FTS5 evaluates, with the same C log.
const IDF_SQL = 'SELECT ln((?1 - ?2 + 0.5) / (?2 + 0.5))'

const prepared = new WeakSet<object>()
const remembered = new Map<string, string[]>()

/** The tokens FTS5 makes of a word (stemmed, folded): tokenized by a scratch index of the same kind. */
function tokensOf(db: SqlReader, word: string): string[] {
  const known = remembered.get(word)
  if (known) return known
  if (!prepared.has(db.handle)) {
    // Temporary tables live on the connection: made again if it was reopened.
    db.exec(TEMP_TABLES)
    prepared.add(db.handle)
  }
  db.run('INSERT INTO temp.raw_fts_tokenizer(rowid, text) VALUES (1, ?)', [word])
  const rows = db.all('SELECT term FROM temp.raw_fts_tokenizer_terms ORDER BY offset')
  db.run('DELETE FROM temp.raw_fts_tokenizer')
  const tokens = rows.map((r) => String(r[0]))
  if (remembered.size >= MAX_REMEMBERED_WORDS) remembered.clear()
  remembered.set(word, tokens)
  return tokens
}

/** A word's score for each public row holding it. */
export function readWordScores(db: SqlReader, corpus: WordCorpus, word: string): WordScores {
  const tokens = tokensOf(db, word)
  if (tokens.length !== 1) return readPhrase(db, corpus, word)
  const { byRow, avgdl, longest } = corpus
  const { rows: matched, counts } = parseOccurrences(String(db.get(OCCURRENCES_SQL, [tokens[0]])?.[0] ?? ''))
  const n = matched.length
  const computed = Number(db.get(IDF_SQL, [corpus.rows, n])?.[0])
  const idf = computed > 0 ? computed : MIN_IDF
  // The score depends on (f, D) only: one class per pair seen (f = 1, nearly every row, by D).
  const classScores: number[] = []
  const classOf = (f: number, d: number) => {
    classScores.push(idf * ((f * K1_PLUS_1) / (f + K1 * (1 - B + (B * d) / avgdl)))) // fts5Bm25Function's expression
    return classScores.length - 1
  }
  // Each row's ordinal and length first, in a loop of loads alone: the rows are scattered
  // over the corpus's arrays, and independent loads let the processor overlap their misses.
  const ordinals = new Int32Array(n)
  const lengths = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const at = 2 * matched[i]!
    ordinals[i] = at < byRow.length ? byRow[at]! : 0
    lengths[i] = at < byRow.length ? byRow[at + 1]! : 0
  }
  const once = new Int32Array(longest + 1).fill(-1)
  const repeated = new Map<string, number>()
  const classes = new Int32Array(n)
  let kept = 0
  for (let i = 0; i < n; i++) {
    if (ordinals[i] === 0) continue // not public
    const f = counts[i]!
    const d = lengths[i]!
    let c: number
    if (f === 1) {
      c = once[d]!
      if (c < 0) c = once[d] = classOf(1, d)
    } else {
      c = repeated.get(`${f}:${d}`) ?? -1
      if (c < 0) repeated.set(`${f}:${d}`, (c = classOf(f, d)))
    }
    ordinals[kept] = ordinals[i]!
    classes[kept++] = c
  }
  return packWordScores(ordinals, classes, classScores, kept)
}

/** A word FTS5 makes several tokens of (a phrase), or none: FTS5 ranks it alone (rank = −score). */
function readPhrase(db: SqlReader, corpus: WordCorpus, word: string): WordScores {
  const { byRow } = corpus
  const row = db.get(PHRASE_SQL, [ftsPhrase(word)])
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

