/**
 * What the search's ranking needs of the whole text index at one data version, read in one
 * go: N and the mean row length (FTS5's averages record), every row's length in tokens (its
 * docsize record) and the public rows' recency order. A million rows take about 0.3 s; the
 * result is shared by every query until the next content write.
 */
import { FTS_COLUMNS, FTS_TABLE } from './contentSchema'
import { parseIntegers } from './commaLists'
import type { SqlReader } from './sqlReader'
import { TABLES } from './tables'

export type Corpus = {
  /** N: rows in the index. */
  rows: number
  avgdl: number
  /**
   * Per rowid, two entries: the row's place newest first among public rows (1-based; 0 = not
   * public) and D, its length in tokens: what the ranking reads of its few best rows (their
   * ordinals break ties) and of the rows too long for publicLength.
   */
  byRow: Int32Array
  /**
   * Per rowid, one byte: 0 when the row is not public, else D, with 255 for a D of 0 or over
   * 254 (then read from byRow). A word's rows are scored from this: a megabyte at a million
   * rows stays in the processor's cache where byRow's eight do not, and scoring a word's rows
   * was its cache misses.
   */
  publicLength: Uint8Array
  /** The largest D. */
  longest: number
  /** Public rowids, newest first (approved_at DESC, id DESC). */
  byOrdinal: Int32Array
}

/** What reading a word needs of the corpus (./wordReading). */
export type WordCorpus = Pick<Corpus, 'rows' | 'avgdl' | 'byRow' | 'publicLength' | 'longest'>

/** publicLength's mark for a D it cannot hold (0, or over 254). */
export const LENGTH_IN_BY_ROW = 255

const AVERAGES_SQL = `SELECT block FROM ${FTS_TABLE}_data WHERE id = 1`
const LENGTHS_SQL = `SELECT min(id), max(id), (SELECT group_concat(hex(sz), '') FROM (SELECT sz FROM ${FTS_TABLE}_docsize ORDER BY id))
  FROM ${FTS_TABLE}_docsize`
const LENGTH_IDS_SQL = `SELECT json_group_array(id) FROM (SELECT id FROM ${FTS_TABLE}_docsize ORDER BY id)`
const RECENCY_SQL = `SELECT group_concat(rowid) FROM (
  SELECT rowid FROM ${TABLES.content} WHERE status = 'approved' AND is_active = 1 ORDER BY approved_at DESC, id DESC)`

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

export function readCorpus(db: SqlReader): Corpus {
  const get = db.get
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
  const byOrdinal = parseIntegers(String(get(RECENCY_SQL)?.[0] ?? ''))
  let lastRow = count === 0 ? 0 : rowidOf(count - 1)
  for (const rowid of byOrdinal) if (rowid > lastRow) lastRow = rowid
  const byRow = new Int32Array(2 * (lastRow + 1))
  for (let i = 0; i < count; i++) byRow[2 * rowidOf(i) + 1] = lengths[i]!
  byOrdinal.forEach((rowid, i) => (byRow[2 * rowid] = i + 1))
  const publicLength = new Uint8Array(lastRow + 1)
  for (const rowid of byOrdinal) {
    const d = byRow[2 * rowid + 1]!
    publicLength[rowid] = d > 0 && d < LENGTH_IN_BY_ROW ? d : LENGTH_IN_BY_ROW
  }
  return { rows, avgdl: tokens / rows, byRow, publicLength, longest, byOrdinal }
}
