/**
 * One word's bm25 scores at one data version, as the word cache keeps them: the public rows
 * holding the word (as recency ordinals, in the index's rowid order) and each one's score.
 * A word's scores take few distinct values (bm25 depends only on the row's length and the
 * word's weighted count in it), so a row stores the index of its score class: six bytes a
 * row. Nothing is sorted: a query sums its words' scores per row and selects its best rows
 * (./textRanking), so a word read for the first time costs its reading and one pass.
 */
export type WordScores = {
  /** Public rows holding the word. */
  readonly count: number
  /** Each row's recency ordinal (1 = the newest public row). */
  readonly ordinals: Int32Array
  /** Each row's score class. */
  readonly classes: Uint16Array | Int32Array
  /** The score of each class. */
  readonly classScores: Float64Array
}

/**
 * The first n (ordinal, class) pairs as a word's cached scores (copies of the right length:
 * the inputs may be scratch space).
 */
export function wordScoresOf(ordinals: Int32Array, classes: Int32Array, classScores: ArrayLike<number>, n: number): WordScores {
  const narrow = classScores.length <= 0x10000
  const packed = narrow ? new Uint16Array(n) : new Int32Array(n)
  for (let i = 0; i < n; i++) packed[i] = classes[i]!
  return { count: n, ordinals: ordinals.slice(0, n), classes: packed, classScores: Float64Array.from(classScores) }
}

/** Bytes held, for the cache's budget. */
export const wordScoresBytes = (w: WordScores) => w.ordinals.byteLength + w.classes.byteLength + w.classScores.byteLength + 96
