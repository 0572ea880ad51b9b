/**
 * One token's postings read straight from FTS5's index pages (the `%_data` and `%_idx`
 * tables): every row holding the token and its weighted count there (each occurrence counts
 * its column's weight, as bm25 sums them). The same rows FTS5's own MATCH visits, at a
 * fraction of the cost of its fts5vocab table, which makes one SQL row per occurrence.
 *
 * The format is FTS5's file format (ext/fts5/fts5_index.c, "Details"), stable across SQLite
 * versions: a structure record (id 10) lists the segments, newest level first; each segment
 * is a run of leaf pages (id = segid << 37 | page number) holding terms and their doclists:
 * rowid deltas, each with a position list (column markers and offsets) that may run over
 * into the following pages. A row in several segments is the newest segment's entry; an
 * empty position list there is a deletion. Anything this reader does not expect (another
 * structure format or version, an inconsistent page) returns undefined, and the caller asks
 * FTS5's vocabulary table instead; the same read happens in one read transaction, so a
 * concurrent merge cannot move pages under it.
 */
import { FTS_TABLE } from '../contentSchema'
import type { SqlReader } from '../connection'

/** Views over scratch arrays, valid until the next readPostings call. */
export type Postings = {
  /** Rows holding the token, ascending. */
  rows: Int32Array
  /** Per row: the sum over its occurrences of the column's weight. */
  weighted: Float64Array
  count: number
}

/** The only index format this reader knows (FTS5_CURRENT_VERSION; 5 marks secure-delete). */
const KNOWN_VERSION = 4
const STRUCTURE_ROWID = 10
/** `%_data` ids: segment id above 5 height bits, a doclist-index bit and 31 page bits. */
const SEGMENT_SHIFT = 2 ** 37
/** The main index's terms carry this prefix byte ('0'); prefix indexes use others. */
const MAIN_PREFIX = 0x30
/**
 * Pages fetched per statement once a doclist runs past its first page (read with the other
 * segments' first pages), then doubled: at most about twice the pages needed, in few statements.
 */
const FIRST_BATCH = 2
const MAX_BATCH = 256
/** Rows of merged scratch kept between reads. */
const MAX_RETAINED_ROWS = 1 << 18

const VERSION_SQL = `SELECT v FROM ${FTS_TABLE}_config WHERE k = 'version'`
const STRUCTURE_SQL = `SELECT block FROM ${FTS_TABLE}_data WHERE id = ${STRUCTURE_ROWID}`
// For every segment at once (a statement per segment costs more than the seek): the page
// whose first term is the last one not after the term (fts5SegIterSeekInit), -1 for none.
const SEEK_SQL = `SELECT json_group_array(coalesce(
    (SELECT pgno FROM ${FTS_TABLE}_idx WHERE segid = j.value AND term <= ?1 ORDER BY term DESC LIMIT 1), -1) ORDER BY j.key)
  FROM json_each(?2) j`
/** The first leaf to read of each segment, in one statement. */
const LEAVES_SQL = `SELECT id, block FROM ${FTS_TABLE}_data WHERE id IN (SELECT value FROM json_each(?))`
const PAGES_SQL = `SELECT id, block FROM ${FTS_TABLE}_data WHERE id >= ? AND id <= ?`

/** An unexpected byte layout: the caller falls back to FTS5's own tables. */
class UnknownLayout extends Error {}

type Segment = { id: number; first: number; last: number }

/** SQLite's varint at `at` of `a`; `next` receives the offset after it. */
let next = 0
function varint(a: Uint8Array, at: number): number {
  let value = 0
  for (let i = 0; i < 8; i++) {
    const byte = a[at + i]
    if (byte === undefined) throw new UnknownLayout('varint past the end')
    value = value * 128 + (byte & 127)
    if (byte < 128) {
      next = at + i + 1
      return value
    }
  }
  const last = a[at + 8]
  if (last === undefined) throw new UnknownLayout('varint past the end')
  next = at + 9
  return value * 256 + last
}

/** The segments, highest priority (newest) first: level 0 first, the last of a level first. */
function readStructure(db: SqlReader): Segment[] {
  const block = db.get(STRUCTURE_SQL)?.[0]
  if (!(block instanceof Uint8Array)) return [] // an index never written to
  if (block[4] === 0xff) throw new UnknownLayout('structure record V2 (contentless_delete)')
  const levels = varint(block, 4)
  varint(block, next) // segments
  varint(block, next) // write counter
  const segments: Segment[] = []
  for (let l = 0; l < levels; l++) {
    varint(block, next) // segments being merged
    const count = varint(block, next)
    const level: Segment[] = []
    for (let s = 0; s < count; s++) {
      const id = varint(block, next)
      const first = varint(block, next)
      const last = varint(block, next)
      level.push({ id, first, last })
    }
    segments.push(...level.reverse())
  }
  // A segment fully consumed by an incremental merge has first page 0.
  return segments.filter((s) => s.first > 0)
}

/** A segment's leaf pages, fetched in growing batches and kept for the read. */
class Leaves {
  private readonly pages = new Map<number, Uint8Array>()
  private batch = FIRST_BATCH

  constructor(
    private readonly db: SqlReader,
    private readonly segment: Segment,
  ) {}

  /** A page read beforehand (with other segments' first pages). */
  preload(pgno: number, page: Uint8Array): void {
    this.pages.set(pgno, page)
  }

  page(pgno: number): Uint8Array | undefined {
    if (pgno > this.segment.last) return undefined
    let page = this.pages.get(pgno)
    if (page === undefined) {
      const last = Math.min(this.segment.last, pgno + this.batch - 1)
      const base = this.segment.id * SEGMENT_SHIFT
      for (const [id, block] of this.db.all(PAGES_SQL, [base + pgno, base + last])) {
        if (block instanceof Uint8Array) this.pages.set(Number(id) - base, block)
      }
      this.batch = Math.min(MAX_BATCH, this.batch * 2)
      page = this.pages.get(pgno)
      if (page === undefined) throw new UnknownLayout(`missing leaf ${pgno} of segment ${this.segment.id}`)
    }
    return page
  }
}

const u16 = (a: Uint8Array, at: number) => (a[at]! << 8) | a[at + 1]!
/** Where a leaf's page index (term offsets) starts: the end of its doclist data. */
const leafEnd = (page: Uint8Array) => u16(page, 2)
const hasTerms = (page: Uint8Array) => leafEnd(page) < page.length
const firstTermOffset = (page: Uint8Array) => varint(page, leafEnd(page))

/** Growable scratch lists (rowid, weighted count, deleted) for one segment's doclist. */
type Entries = { rows: Float64Array; weighted: Float64Array; empty: Uint8Array; n: number }
const newEntries = (): Entries => ({ rows: new Float64Array(1024), weighted: new Float64Array(1024), empty: new Uint8Array(1024), n: 0 })
function push(e: Entries, row: number, weighted: number, empty: boolean): void {
  if (e.n === e.rows.length) {
    const grow = <T extends Float64Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2)
      b.set(a)
      return b
    }
    e.rows = grow(e.rows)
    e.weighted = grow(e.weighted)
    e.empty = grow(e.empty)
  }
  e.rows[e.n] = row
  e.weighted[e.n] = weighted
  e.empty[e.n++] = empty ? 1 : 0
}

/**
 * The offset where `term`'s doclist starts on a segment's leaf `pgno` (just after the term),
 * or undefined when the leaf does not hold it, so neither does the segment (fts5LeafSeek).
 */
function seek(leaves: Leaves, pgno: number, term: Uint8Array): { pgno: number; at: number } | undefined {
  const page = leaves.page(pgno)
  if (!page || !hasTerms(page)) return undefined
  const end = leafEnd(page)
  let index = end
  let termAt = varint(page, index)
  index = next
  let previous = new Uint8Array(0)
  for (let first = true; ; first = false) {
    let at = termAt
    const keep = first ? 0 : varint(page, at)
    if (!first) at = next
    const fresh = varint(page, at)
    at = next
    if (keep > previous.length || at + fresh > end) throw new UnknownLayout('term past the page')
    const current = new Uint8Array(keep + fresh)
    current.set(previous.subarray(0, keep))
    current.set(page.subarray(at, at + fresh), keep)
    const order = compareBytes(current, term)
    if (order === 0) return { pgno, at: at + fresh }
    if (order > 0 || index >= page.length) return undefined
    termAt += varint(page, index)
    index = next
    previous = current
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/**
 * A segment's doclist from (pgno, at), as fts5SegIterNext walks it: each entry's weighted
 * count from its position list (which may continue on the next pages, from their offset 4),
 * then the next rowid: a delta on the same page before the next term, or on a later page
 * the absolute rowid at that page's first-rowid offset; a page that starts with a term
 * instead ends the doclist.
 */
function readDoclist(leaves: Leaves, pgno: number, start: number, weights: readonly number[], out: Entries): void {
  let page = leaves.page(pgno)!
  let at = start
  let endOfDoclist = termAfter(page, start)
  // The first rowid may sit on the next page when the term ends its page.
  while (at >= leafEnd(page)) {
    page = leaves.page(++pgno) ?? fail('doclist past the segment')
    at = 4
    endOfDoclist = hasTerms(page) ? firstTermOffset(page) : Infinity
  }
  let row = onPage(page, at)
  at = next
  for (;;) {
    const size = onPage(page, at)
    at = next
    const bytes = size >>> 1
    // Walk the position list: the byte 1 switches column (the column number follows), any
    // other varint is one occurrence in the current column, counted by its last byte (the
    // only one below 128). Its chunks continue at offset 4 of later pages. A column the weights
    // do not name has no weight, and an occurrence there is a layout this reader does not know.
    let weight: number | undefined = weights[0]
    let switching = false
    let weighted = 0
    let left = bytes
    let chunkPage = page
    let chunkPgno = pgno
    let p = at
    while (left > 0) {
      const chunkEnd = Math.min(leafEnd(chunkPage), p + left)
      left -= chunkEnd - p
      if (switching && p < chunkEnd) {
        weight = weights[varint(chunkPage, p)]
        p = next
        switching = false
      }
      while (p < chunkEnd) {
        const byte = chunkPage[p++]!
        if (byte === 1) {
          if (p === chunkEnd) {
            switching = true
            break
          }
          weight = weights[varint(chunkPage, p)]
          p = next
        } else {
          // A varint's continuation bytes have the high bit set (at most 8 of them).
          if (byte >= 128) p = varintEnd(chunkPage, p - 1)
          weighted += weight ?? fail('occurrence in an unknown column')
        }
      }
      if (p > chunkEnd) throw new UnknownLayout('varint across a chunk')
      if (left > 0) {
        chunkPage = leaves.page(++chunkPgno) ?? fail('position list past the segment')
        p = 4
      }
    }
    push(out, row, weighted, bytes === 0)
    // The next entry: on this page unless the position list reached its end.
    at += bytes
    if (at < leafEnd(page)) {
      if (at >= endOfDoclist) return
      row += onPage(page, at)
      at = next
      continue
    }
    for (;;) {
      page = leaves.page(++pgno) as Uint8Array
      if (page === undefined) return
      const firstRowid = u16(page, 0)
      if (firstRowid !== 0 && firstRowid < leafEnd(page)) {
        row = onPage(page, firstRowid)
        at = next
        endOfDoclist = hasTerms(page) ? firstTermOffset(page) : Infinity
        break
      }
      if (hasTerms(page)) return
    }
  }
}

/** The offset just past the varint at `at`. */
function varintEnd(a: Uint8Array, at: number): number {
  for (let i = 0; i < 8; i++) if (a[at + i]! < 128) return at + i + 1
  return at + 9
}

/** A varint that must end within the page's doclist data. */
function onPage(page: Uint8Array, at: number): number {
  const value = varint(page, at)
  if (next > leafEnd(page)) throw new UnknownLayout('varint past the leaf data')
  return value
}

/** The offset of the first term after `from` on the page (the end of a doclist there), or Infinity. */
function termAfter(page: Uint8Array, from: number): number {
  if (!hasTerms(page)) return Infinity
  let index = leafEnd(page)
  let termAt = 0
  while (index < page.length) {
    termAt += varint(page, index)
    index = next
    if (termAt >= from) return termAt
  }
  return Infinity
}

function fail(why: string): never {
  throw new UnknownLayout(why)
}

const encoder = new TextEncoder()
let scratch: Entries[] = []

/**
 * The postings of one token (as FTS5 stores it: stemmed, folded) with each column's weight,
 * or undefined when the index's layout is not one this reader knows.
 */
export function readPostings(db: SqlReader, token: string, weights: readonly number[]): Postings | undefined {
  const tokenBytes = encoder.encode(token)
  const term = new Uint8Array(tokenBytes.length + 1)
  term[0] = MAIN_PREFIX
  term.set(tokenBytes, 1)
  let began = false
  try {
    // One snapshot for the structure, the page index and the pages.
    try {
      db.exec('BEGIN')
      began = true
    } catch {
      // Already in a transaction: its snapshot serves.
    }
    if (Number(db.get(VERSION_SQL)?.[0]) !== KNOWN_VERSION) return undefined
    const segments = readStructure(db)
    if (segments.length === 0) return merge([])
    while (scratch.length < segments.length) scratch.push(newEntries())
    // Each segment's leaf that may hold the term, then all those leaves, in two statements.
    const found = JSON.parse(String(db.get(SEEK_SQL, [Buffer.from(term), JSON.stringify(segments.map((g) => g.id))])?.[0])) as number[]
    const firstLeaf = segments.map((segment, s) => Math.max(segment.first, found[s]! < 0 ? 1 : Math.floor(found[s]! / 2)))
    const leaves = segments.map((segment) => new Leaves(db, segment))
    const ids = segments.map((segment, s) => segment.id * SEGMENT_SHIFT + firstLeaf[s]!)
    for (const [id, block] of db.all(LEAVES_SQL, [JSON.stringify(ids)])) {
      const s = ids.indexOf(Number(id))
      if (s >= 0 && block instanceof Uint8Array) leaves[s]!.preload(firstLeaf[s]!, block)
    }
    const lists: Entries[] = []
    segments.forEach((segment, s) => {
      if (firstLeaf[s]! > segment.last) return
      const start = seek(leaves[s]!, firstLeaf[s]!, term)
      if (!start) return
      const entries = scratch[s]!
      entries.n = 0
      readDoclist(leaves[s]!, start.pgno, start.at, weights, entries)
      if (entries.n > 0) lists.push(entries)
    })
    return merge(lists)
  } catch (err) {
    if (err instanceof UnknownLayout) return undefined
    throw err
  } finally {
    if (began) db.exec('COMMIT')
    // A doclist of a very common word grows the scratch lists: let them go after a big read.
    if (scratch.some((e) => e.rows.length > MAX_RETAINED_ROWS)) scratch = []
  }
}

// Two scratch run buffers for merging several segments' lists (kept up to a size).
const runs: Entries[] = []
function runBuffer(which: number, size: number): Entries {
  let buffer = runs[which]
  if (!buffer || buffer.rows.length < size) {
    buffer = { rows: new Float64Array(size), weighted: new Float64Array(size), empty: new Uint8Array(size), n: 0 }
    if (size <= MAX_RETAINED_ROWS) runs[which] = buffer
  }
  return buffer
}

// The merged postings are written here and handed out as views, valid until the next read
// (the caller turns them into its own arrays at once): a cold search allocates less.
let mergedRows = new Int32Array(0)
let mergedWeighted = new Float64Array(0)

/** The segments' lists as one, rows ascending: a row's entry from the newest segment holding it; deletions dropped. */
function merge(lists: Entries[]): Postings {
  let total = 0
  for (const l of lists) total += l.n
  // Scratch is kept up to a size (12 bytes a row); a word in more rows gets arrays of its own.
  if (mergedRows.length < total && total <= MAX_RETAINED_ROWS) {
    mergedRows = new Int32Array(Math.min(MAX_RETAINED_ROWS, 2 * total))
    mergedWeighted = new Float64Array(mergedRows.length)
  }
  const rows = mergedRows.length >= total ? mergedRows : new Int32Array(total)
  const weighted = mergedWeighted.length >= total ? mergedWeighted : new Float64Array(total)
  let n = 0
  const take = (list: Entries, i: number) => {
    if (list.empty[i]) return // deleted
    if (list.rows[i]! > 0x7fffffff) throw new UnknownLayout('rowid beyond 32 bits')
    rows[n] = list.rows[i]!
    weighted[n++] = list.weighted[i]!
  }
  if (lists.length === 1) {
    for (let i = 0; i < lists[0]!.n; i++) take(lists[0]!, i)
  } else {
    // Merged pairwise, in rounds, like a merge sort: runs stay in priority order (newest
    // first), so of two equal rowids the left run's entry is the newer one and alone is kept
    // (deletions too, until the end: they hide older entries).
    let a = runBuffer(0, total)
    let b = runBuffer(1, total)
    let bounds = [0]
    let end = 0
    for (const list of lists) {
      a.rows.set(list.rows.subarray(0, list.n), end)
      a.weighted.set(list.weighted.subarray(0, list.n), end)
      a.empty.set(list.empty.subarray(0, list.n), end)
      bounds.push((end += list.n))
    }
    while (bounds.length > 2) {
      const merged = [0]
      let out = 0
      for (let r = 0; r + 1 < bounds.length; r += 2) {
        let i = bounds[r]!
        const iEnd = bounds[r + 1]!
        let j = r + 2 < bounds.length ? bounds[r + 1]! : iEnd
        const jEnd = r + 2 < bounds.length ? bounds[r + 2]! : iEnd
        while (i < iEnd || j < jEnd) {
          let from: number
          if (j >= jEnd || (i < iEnd && a.rows[i]! <= a.rows[j]!)) {
            if (j < jEnd && a.rows[i] === a.rows[j]) j++ // the older entry of the same row
            from = i++
          } else {
            from = j++
          }
          b.rows[out] = a.rows[from]!
          b.weighted[out] = a.weighted[from]!
          b.empty[out++] = a.empty[from]!
        }
        merged.push(out)
      }
      bounds = merged
      ;[a, b] = [b, a]
    }
    for (let i = 0; i < bounds[1]!; i++) take(a, i)
  }
  return { rows: rows.subarray(0, n), weighted: weighted.subarray(0, n), count: n }
}
