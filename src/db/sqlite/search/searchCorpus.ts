/**
 * What the search's ranking needs of the whole text index at one data version: N and the mean
 * row length (FTS5's averages record), every row's length in tokens (its docsize record) and the
 * public rows' recency order. Read whole once (about a second at a million rows; docs/benchmarks.md, *Measurements behind the code*), then followed
 * write by write (updateCorpus): the rows a write changed are named in raw_content_text_changes
 * (triggers on content), and only they are read again, their lengths, public status and place in
 * the recency order patched into a new version (a few milliseconds at a million rows). The result
 * is the same as reading it whole at that moment (test/db/searchCorpus.test.ts), bar `longest`,
 * which may stay above the largest length (it only sizes a table). The per-row arrays are paged
 * (./pagedInts): a version shares every page a write did not touch with the one before it.
 */
import { cacheCounter } from '../../../platform/metrics'
import { FTS_COLUMNS, FTS_TABLE } from '../contentSchema'
import { parseIntegers } from './commaLists'
import { nextSlice } from '../../../platform/loopSlices'
import { PagedInts } from './pagedInts'
import type { SqlReader } from '../connection'
import { TABLES } from '../tables'

export type Corpus = {
  /** N: rows in the index. */
  rows: number
  avgdl: number
  /**
   * Per rowid, two entries: the row's place among public rows counted from the oldest (1-based;
   * 0 = not public: a higher place is a newer row) and D, its length in tokens: what the ranking
   * reads of its few best rows (their places break ties) and of the rows too long for
   * publicLength. Counted from the oldest so that a new approval, the newest row, moves no other
   * row's place.
   */
  byRow: PagedInts
  /**
   * Per rowid, one byte: 0 when the row is not public, else D, with 255 for a D of 0 or over
   * 254 (then read from byRow). A word's rows are scored from this: a megabyte at a million
   * rows stays in the processor's cache where byRow's eight do not, and scoring a word's rows
   * was its cache misses.
   */
  publicLength: Uint8Array
  /** The largest D. */
  longest: number
  /** Public rowids, oldest first (the reverse of approved_at DESC, id DESC): place p is byOrdinal.get(p - 1). */
  byOrdinal: PagedInts
  /** The last raw_content_text_changes entry this corpus reflects. */
  changeSeq: number
  /**
   * When followed from an earlier corpus (updateCorpus): its changeSeq, the rows changed since
   * and those of them that were public in it (a word's cached rows can hold only those), ascending.
   */
  step?: { fromSeq: number; rows: Int32Array; wasPublic: Int32Array }
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
const CHANGES_TABLE = 'raw_content_text_changes'
const LAST_CHANGE_SQL = `SELECT coalesce(max(seq), 0) FROM ${CHANGES_TABLE}`
const CHANGES_SQL = `SELECT min(seq), min(row), group_concat(row) FROM (SELECT seq, row FROM ${CHANGES_TABLE} WHERE seq > ? AND seq <= ? ORDER BY seq)`
/** A changed row as the ranking reads it: public or not, its recency key, its length record. */
const CHANGED_ROWS_SQL = `SELECT c.rowid, c.status = 'approved' AND c.is_active = 1, c.approved_at, c.id, (SELECT hex(sz) FROM ${FTS_TABLE}_docsize WHERE id = c.rowid)
  FROM json_each(?) j JOIN ${TABLES.content} c ON c.rowid = j.value`
const RECENCY_KEY_SQL = `SELECT approved_at, id FROM ${TABLES.content} WHERE rowid = ?`
/** Past this many changed rows, reading the corpus whole is as quick as following them. */
const MAX_FOLLOWED_ROWS = 20_000

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

/** N and the total length: FTS5's averages record (varints: rows, then tokens per column). */
function readAverages(db: SqlReader): { rows: number; tokens: number } {
  const averages = db.get(AVERAGES_SQL)?.[0] as Uint8Array | undefined
  let rows = 0
  let tokens = 0
  // An index that never held a row keeps an empty record.
  if (averages && averages.length > 0) {
    let at: number
    ;[rows, at] = readVarint(averages, 0)
    while (at < averages.length) {
      let columnTokens: number
      ;[columnTokens, at] = readVarint(averages, at)
      tokens += columnTokens
    }
  }
  return { rows, tokens }
}

/**
 * How many rows the public sees: the public text index holds exactly those (its triggers, and
 * start-up's check against the content table), and FTS5 keeps their number in one record, read
 * here in microseconds where counting a million index entries takes tens of milliseconds.
 */
export function publicRowCount(db: SqlReader): number {
  return readAverages(db).rows
}

/** A row's length in tokens from its docsize record (a varint per column). */
function lengthOf(sizes: ArrayLike<number>): number {
  let d = 0
  for (let at = 0, c = 0; c < FTS_COLUMNS.length && at < sizes.length; c++) {
    let n: number
    ;[n, at] = readVarint(sizes, at)
    d += n
  }
  return d
}

const publicLengthOf = (d: number) => (d > 0 && d < LENGTH_IN_BY_ROW ? d : LENGTH_IN_BY_ROW)

/** Entries copied per slice: a megabyte of a corpus array, well under a millisecond. */
const COPY_CHUNK = 1 << 18

/** Steps that each take well under a millisecond, run a slice of the loop at a time. */
async function stepInSlices(steps: Iterable<void>): Promise<void> {
  for (const _ of steps) {
    const wait = nextSlice()
    if (wait) await wait
  }
}

/** Entries [from, to) of `src` copied into `dst` at `at`, a chunk a step. */
function* copyChunks(dst: Int32Array, at: number, src: PagedInts, from: number, to: number): Generator<void> {
  for (let i = from; i < to; i += COPY_CHUNK) {
    src.copyTo(dst, at + i - from, i, Math.min(to, i + COPY_CHUNK))
    yield
  }
}

/**
 * How each corpus version is built (`cache_lookups_total{cache="search_corpus_built"}`): `miss`,
 * read whole (what stalled the first search after every write; docs/benchmarks.md, *Measurements behind the code*);
 * `hit`, followed from the rows a write changed. test/ops/writeThenSearch.test.ts holds the
 * counts, not the clock.
 */
const corpusReads = cacheCounter('search_corpus_built')

export function readCorpus(db: SqlReader): Corpus {
  const get = db.get
  // The change record's position first: a write after it is followed again later (idempotent).
  const changeSeq = Number(get(LAST_CHANGE_SQL)?.[0] ?? 0)
  corpusReads.miss(changeSeq)
  const { rows, tokens } = readAverages(db)
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
  // Newest first as the SQL orders it, then reversed: oldest first.
  const byOrdinal = parseIntegers(String(get(RECENCY_SQL)?.[0] ?? '')).reverse()
  let lastRow = count === 0 ? 0 : rowidOf(count - 1)
  for (const rowid of byOrdinal) if (rowid > lastRow) lastRow = rowid
  const byRow = new Int32Array(2 * (lastRow + 1))
  for (let i = 0; i < count; i++) byRow[2 * rowidOf(i) + 1] = lengths[i]!
  byOrdinal.forEach((rowid, i) => (byRow[2 * rowid] = i + 1))
  const publicLength = new Uint8Array(lastRow + 1)
  for (const rowid of byOrdinal) publicLength[rowid] = publicLengthOf(byRow[2 * rowid + 1]!)
  return { rows, avgdl: tokens / rows, byRow: PagedInts.from(byRow), publicLength, longest, byOrdinal: PagedInts.from(byOrdinal), changeSeq }
}

type RecencyKey = { approvedAt: string | null; id: string }

/** -1 when a comes before b in `approved_at DESC, id DESC` (SQLite: NULLs last in DESC). */
function newerFirst(a: RecencyKey, b: RecencyKey): number {
  if (a.approvedAt !== b.approvedAt) {
    if (a.approvedAt === null) return 1
    if (b.approvedAt === null) return -1
    return a.approvedAt > b.approvedAt ? -1 : 1
  }
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1
}

/**
 * The corpus now, from `prev` and the rows written since it (raw_content_text_changes): a new
 * corpus (never `prev` changed in place: a ranking under way may hold it), or `prev` itself when
 * nothing changed. Read whole instead when the record no longer reaches back to `prev` (pruned,
 * or a bulk load's "everything changed") or names more rows than are quicker to read again.
 * Everything is read from the database first, in one turn; what the arrays change is then written
 * in slices of the event loop (./loopSlices), into copies of the pages it falls in (./pagedInts).
 */
export async function updateCorpus(db: SqlReader, prev: Corpus): Promise<Corpus> {
  const last = Number(db.get(LAST_CHANGE_SQL)?.[0] ?? 0)
  if (last === prev.changeSeq) return prev
  if (last < prev.changeSeq) return readCorpus(db)
  const [first, lowest, list] = db.get(CHANGES_SQL, [prev.changeSeq, last]) ?? []
  // Pruned past `prev`, or a bulk load's -1 ("everything changed").
  if (Number(first) !== prev.changeSeq + 1 || Number(lowest) < 0) return readCorpus(db)
  const changed = new Set(parseIntegers(String(list ?? '')))
  if (changed.size > MAX_FOLLOWED_ROWS) return readCorpus(db)
  corpusReads.hit(last)

  const { rows, tokens } = readAverages(db)
  // Each changed row as it is now: public or not, its recency key, its length (absent: deleted).
  const now = new Map<number, { public: boolean; key: RecencyKey; d: number }>()
  for (const r of db.all(CHANGED_ROWS_SQL, [JSON.stringify([...changed])])) {
    now.set(Number(r[0]), { public: r[1] === 1, key: { approvedAt: (r[2] as string | null) ?? null, id: String(r[3]) }, d: r[4] ? lengthOf(Buffer.from(String(r[4]), 'hex')) : 0 })
  }
  let lastRow = prev.publicLength.length - 1
  for (const rowid of now.keys()) if (rowid > lastRow) lastRow = rowid
  const publicLength = new Uint8Array(lastRow + 1)
  publicLength.set(prev.publicLength)
  let longest = prev.longest
  for (const rowid of changed) {
    const row = now.get(rowid)
    const d = row?.d ?? 0
    if (d > longest) longest = d
    publicLength[rowid] = row?.public ? publicLengthOf(d) : 0
  }

  // The recency order, oldest first: the changed rows that were public taken out, the public
  // ones among them put back at their place. It is the previous order up to the first place that
  // moved and is written anew only from there: a new approval is the newest row, so it goes at
  // the end and moves no other row's place (one page of the order written, the others shared).
  const prevOrder = prev.byOrdinal
  const leaving: number[] = []
  for (const rowid of changed) {
    const place = prev.byRow.get(2 * rowid)
    if (place > 0) leaving.push(place - 1)
  }
  leaving.sort((a, b) => a - b)
  const keptCount = prevOrder.length - leaving.length
  // The rows that stay, in order: the previous order itself when none leaves (an approval, a
  // submission); else made once, whole runs between the leaving places copied at once.
  let kept = prevOrder
  if (leaving.length > 0) {
    const flat = new Int32Array(keptCount)
    let from = 0
    let to = 0
    for (const at of leaving) {
      prevOrder.copyTo(flat, to, from, at)
      to += at - from
      from = at + 1
    }
    prevOrder.copyTo(flat, to, from, prevOrder.length)
    kept = PagedInts.from(flat)
  }
  const entering = [...now.entries()].filter(([, row]) => row.public).sort(([, a], [, b]) => newerFirst(b.key, a.key))
  const keys = new Map<number, RecencyKey>()
  const keyOf = (rowid: number): RecencyKey => {
    let key = keys.get(rowid)
    if (!key) {
      const r = db.get(RECENCY_KEY_SQL, [rowid])!
      key = { approvedAt: (r[0] as string | null) ?? null, id: String(r[1]) }
      keys.set(rowid, key)
    }
    return key
  }
  // Each entering row's place: before the first kept row newer than it, searched among those not
  // yet placed (none, most often: checked first). Found before anything is copied: every read in this turn.
  const places: number[] = []
  let lo = 0
  for (const [, row] of entering) {
    let hi = keptCount
    if (keptCount === 0 || newerFirst(row.key, keyOf(kept.get(keptCount - 1))) < 0) lo = keptCount
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (newerFirst(keyOf(kept.get(mid)), row.key) > 0) lo = mid + 1
      else hi = mid
    }
    places.push(lo)
  }
  // From here on nothing is read: the order from its first moved place, then the places that
  // gives, a slice of the loop at a time.
  const length = keptCount + entering.length
  const firstMoved = Math.min(leaving[0] ?? length, places[0] ?? length)
  const tail = new Int32Array(length - firstMoved)
  let from = firstMoved
  let to = 0
  for (const [i, [rowid]] of entering.entries()) {
    const place = places[i]!
    await stepInSlices(copyChunks(tail, to, kept, from, place))
    to += place - from
    from = place
    tail[to++] = rowid
  }
  await stepInSlices(copyChunks(tail, to, kept, from, keptCount))
  const order = prevOrder.draft(length)
  await stepInSlices(order.setRange(firstMoved, tail))
  const byRow = prev.byRow.draft(2 * (lastRow + 1))
  for (const rowid of changed) {
    byRow.set(2 * rowid, 0)
    byRow.set(2 * rowid + 1, now.get(rowid)?.d ?? 0)
  }
  for (let i = 0; i < tail.length; i++) byRow.set(2 * tail[i]!, firstMoved + i + 1)
  const wasPublic = Int32Array.from(leaving, (at) => prevOrder.get(at)).sort()
  const step = { fromSeq: prev.changeSeq, rows: Int32Array.from(changed).sort(), wasPublic }
  return { rows, avgdl: tokens / rows, byRow: byRow.done(), publicLength, longest, byOrdinal: order.done(), changeSeq: last, step }
}
