/**
 * One word's bm25 scores at one data version, as the word cache keeps them: the public rows
 * holding the word, ascending, and each one's score.
 *
 * Compact, so that a vocabulary's worth of words stays cached at a million rows (a word in
 * 15,000 of them takes about 32 KB): the rows as gaps from the previous row, one byte each
 * (0 marks a gap too large for a byte, written in the 4 bytes after it), and each row's score
 * as the index of its score class (bm25 depends only on the row's length and the word's
 * weighted count in it, so a word has few distinct scores): one byte while the word has at
 * most 256 classes. About two bytes a row. Nothing is sorted at query time: a query merges
 * its words' lists in one sequential pass (./textRanking).
 */
export type WordScores = {
  /** Public rows holding the word. */
  readonly count: number
  /** The rows' rowids, ascending, as gaps (see above): read with decodeWord. */
  readonly gaps: Uint8Array
  /** Each row's score class. */
  readonly classes: Uint8Array | Uint16Array | Int32Array
  /** The score of each class. */
  readonly classScores: Float64Array
  /**
   * What the scores were computed from, so that they can follow a new corpus without reading
   * the word again (./wordFollowing): the rows holding the word in the index (n of the IDF) and
   * each class's weighted count F and row length D. Absent for a phrase (FTS5 ranked it).
   */
  readonly basis?: ScoreBasis
}

export type ScoreBasis = { readonly n: number; readonly f: Float64Array; readonly d: Int32Array }

/** A gap byte of 0: the gap follows in 4 bytes, little-endian. */
const WIDE = 0

/**
 * The first n (rowid, class) pairs as a word's cached scores (copied: the inputs may be scratch
 * space). The index gives rows ascending; pairs that are not (a source in another order) are
 * sorted here first.
 */
export function wordScoresOf(rows: Int32Array, classes: Int32Array, classScores: ArrayLike<number>, n: number, basis?: ScoreBasis): WordScores {
  let order: number[] | undefined
  for (let i = 1; i < n; i++) {
    if (rows[i]! <= rows[i - 1]!) {
      order = Array.from({ length: n }, (_, k) => k).sort((a, b) => rows[a]! - rows[b]!)
      break
    }
  }
  const at = (i: number) => (order ? order[i]! : i)
  let bytes = 0
  let previous = 0
  for (let i = 0; i < n; i++) {
    const gap = rows[at(i)]! - previous
    bytes += gap >= 1 && gap <= 255 ? 1 : 5
    previous = rows[at(i)]!
  }
  const gaps = new Uint8Array(bytes)
  const packed = classScores.length <= 0x100 ? new Uint8Array(n) : classScores.length <= 0x10000 ? new Uint16Array(n) : new Int32Array(n)
  let p = 0
  previous = 0
  for (let i = 0; i < n; i++) {
    const row = rows[at(i)]!
    const gap = row - previous
    if (gap >= 1 && gap <= 255) gaps[p++] = gap
    else {
      gaps[p++] = WIDE
      gaps[p++] = gap & 0xff
      gaps[p++] = (gap >>> 8) & 0xff
      gaps[p++] = (gap >>> 16) & 0xff
      gaps[p++] = (gap >>> 24) & 0xff
    }
    previous = row
    packed[i] = classes[at(i)]!
  }
  return { count: n, gaps, classes: packed, classScores: Float64Array.from(classScores), ...(basis ? { basis } : {}) }
}

/**
 * Decodes a word's rows and scores into rows[at, at + count) and scores[at, at + count) (the
 * ranking's scratch): one tight pass, so a query's merge reads plain arrays.
 */
export function decodeWord(w: WordScores, rows: Int32Array, scores: Float64Array, at = 0): void {
  const { count, classes, classScores } = w
  // Two loops, each with one output: faster than one loop writing both.
  decodeRows(w, rows, at)
  for (let j = 0; j < count; j++) scores[at + j] = classScores[classes[j]!]!
}

/** Decodes a word's rows into rows[at, at + count). */
export function decodeRows(w: WordScores, rows: Int32Array, at = 0): void {
  const { count, gaps } = w
  let p = 0
  let row = 0
  for (let i = at, end = at + count; i < end; i++) {
    const gap = gaps[p++]!
    if (gap !== WIDE) row += gap
    else {
      row += gaps[p]! | (gaps[p + 1]! << 8) | (gaps[p + 2]! << 16) | (gaps[p + 3]! << 24)
      p += 4
    }
    rows[i] = row
  }
}

/** The rows, decoded (tests and diagnostics). */
export function rowsOf(w: WordScores): Int32Array {
  const rows = new Int32Array(w.count)
  decodeRows(w, rows)
  return rows
}

/** True when any of `sorted` (ascending rowids) is among the word's rows: one pass over its gaps. */
export function holdsAnyRow(w: WordScores, sorted: ArrayLike<number>): boolean {
  if (sorted.length === 0 || w.count === 0) return false
  const { gaps, count } = w
  let p = 0
  let row = 0
  let k = 0
  for (let i = 0; i < count; i++) {
    const gap = gaps[p++]!
    if (gap !== WIDE) row += gap
    else {
      row += gaps[p]! | (gaps[p + 1]! << 8) | (gaps[p + 2]! << 16) | (gaps[p + 3]! << 24)
      p += 4
    }
    while (k < sorted.length && sorted[k]! < row) k++
    if (k === sorted.length) return false
    if (sorted[k] === row) return true
  }
  return false
}

/** The same rows and classes with other class scores (the arrays shared: a cached value is never changed). */
export const withClassScores = (w: WordScores, classScores: Float64Array): WordScores => ({ ...w, classScores })

/** Bytes held, for the cache's budget. */
export const wordScoresBytes = (w: WordScores) =>
  w.gaps.byteLength + w.classes.byteLength + w.classScores.byteLength + (w.basis ? w.basis.f.byteLength + w.basis.d.byteLength : 0) + 96
