/**
 * One word's scores at one data version, packed for the word cache in the order a search on
 * that word alone returns them: the public rows holding the word, grouped by score (best
 * first) and, within a score, by recency ordinal (newest first, the SQL's tie-break). A word's
 * scores take few distinct values (bm25 depends only on the row's length and the word's count
 * in it), so each group stores its score once and its ordinals as 16-bit gaps: about two bytes
 * per row, where ids and doubles would take twelve. Reading a list back is sequential, and a
 * one-word search is its first rows.
 */
export type WordScores = {
  /** Public rows holding the word. */
  readonly count: number
  /** The distinct scores, best first. */
  readonly scores: Float64Array
  /** How many rows have each score. */
  readonly sizes: Int32Array
  /**
   * Each group's ordinals, ascending, as gaps from the group's previous one (0 at its start):
   * one 16-bit unit, or ESCAPE and the gap's low and high 16 bits.
   */
  readonly gaps: Uint16Array
}

/** Marks a gap too wide for one unit. */
const ESCAPE = 0xffff

/**
 * Packs n rows given in any order as (ordinal, class) pairs, where `classScores[class]` is the
 * row's score (classes may share a score); ordinals are distinct and positive.
 */
export function packWordScores(ordinals: Int32Array, classes: Int32Array, classScores: ArrayLike<number>, n: number): WordScores {
  // Each distinct score's place, best first, and each class's place.
  const distinct = Array.from(new Set(Array.from(classScores))).sort((a, b) => b - a)
  const placeOfScore = new Map(distinct.map((score, place) => [score, place]))
  const placeOfClass = Int32Array.from(classScores, (score) => placeOfScore.get(score)!)
  const places = new Int32Array(n)
  for (let i = 0; i < n; i++) places[i] = placeOfClass[classes[i]!]!
  const sorted = sortByPlaceThenOrdinal(places, Int32Array.from(ordinals.subarray(0, n)), distinct.length)
  const sizes = new Int32Array(distinct.length)
  const gaps = new Uint16Array(n * 3)
  let at = 0
  let previous = 0
  let group = -1
  for (let i = 0; i < n; i++) {
    if (sorted.places[i] !== group) {
      group = sorted.places[i]!
      previous = 0
    }
    sizes[group]!++
    const gap = sorted.ordinals[i]! - previous
    if (gap < ESCAPE) {
      gaps[at++] = gap
    } else {
      gaps[at++] = ESCAPE
      gaps[at++] = gap & 0xffff
      gaps[at++] = gap >>> 16
    }
    previous = sorted.ordinals[i]!
  }
  return { count: n, scores: Float64Array.from(distinct), sizes, gaps: gaps.slice(0, at) }
}

/** Bytes held, for the cache's budget. */
export const wordScoresBytes = (w: WordScores) => w.gaps.byteLength + w.scores.byteLength + w.sizes.byteLength + 96

/** Unpacks the ordinals into the first `count` places of `into`, in the packed order (group by group). */
export function unpackOrdinals(w: WordScores, into: Int32Array): void {
  const { gaps, sizes } = w
  let at = 0
  let i = 0
  for (let group = 0; group < sizes.length; group++) {
    let ordinal = 0
    for (let end = i + sizes[group]!; i < end; i++) {
      const gap = gaps[at++]!
      ordinal += gap !== ESCAPE ? gap : gaps[at++]! | (gaps[at++]! << 16)
      into[i] = ordinal
    }
  }
}

const DIGIT_BITS = 11
const DIGITS = 1 << DIGIT_BITS

/**
 * The (place, ordinal) pairs ordered by place, then ordinal: radix passes over the ordinal's
 * 11-bit digits, then a stable counting pass over the place, moving both arrays together (a
 * comparison sort of the same pairs takes several times longer, and this runs for every word
 * a search has not seen). The arrays given are reused.
 */
function sortByPlaceThenOrdinal(places: Int32Array, ordinals: Int32Array, placeCount: number): { places: Int32Array; ordinals: Int32Array } {
  const n = ordinals.length
  let largest = 0
  for (let i = 0; i < n; i++) if (ordinals[i]! > largest) largest = ordinals[i]!
  let p: Int32Array = places
  let o: Int32Array = ordinals
  let p2: Int32Array = new Int32Array(n)
  let o2: Int32Array = new Int32Array(n)
  const count = new Int32Array(Math.max(DIGITS, placeCount) + 1)
  for (let shift = 0; shift < 32 && largest >>> shift > 0; shift += DIGIT_BITS) {
    count.fill(0)
    for (let i = 0; i < n; i++) count[((o[i]! >>> shift) & (DIGITS - 1)) + 1]!++
    for (let b = 0; b < DIGITS; b++) count[b + 1]! += count[b]!
    for (let i = 0; i < n; i++) {
      const to = count[(o[i]! >>> shift) & (DIGITS - 1)]!++
      o2[to] = o[i]!
      p2[to] = p[i]!
    }
    ;[o, o2] = [o2, o]
    ;[p, p2] = [p2, p]
  }
  count.fill(0)
  for (let i = 0; i < n; i++) count[p[i]! + 1]!++
  for (let b = 0; b < placeCount; b++) count[b + 1]! += count[b]!
  for (let i = 0; i < n; i++) {
    const to = count[p[i]!]!++
    o2[to] = o[i]!
    p2[to] = p[i]!
  }
  return { places: p2, ordinals: o2 }
}
