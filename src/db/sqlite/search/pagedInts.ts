/**
 * A sequence of 32-bit integers kept in fixed pages, so that a new version shares every page it
 * did not change with the version it came from (copy on write, a page at a time). The search
 * corpus (./searchCorpus) is megabytes of these at a million rows (docs/benchmarks.md, *Measurements behind the code*), followed write by write: an
 * approval changes a few entries, and copying the whole of it each time made megabytes of
 * garbage a second, which brought V8's full collections (pauses of the loop) back every few
 * seconds (docs/benchmarks.md, *Measurements behind the code*). A version is never changed once made: a ranking under way may hold it.
 */
const PAGE_BITS = 16
const PAGE_SIZE = 1 << PAGE_BITS
const PAGE_MASK = PAGE_SIZE - 1

const pageCount = (length: number) => (length + PAGE_SIZE - 1) >>> PAGE_BITS

export class PagedInts {
  /** Every page holds PAGE_SIZE entries (the last one's past `length` are 0). */
  constructor(
    readonly length: number,
    private readonly pages: readonly Int32Array[],
  ) {}

  /** `values` in pages: its full pages are views of it, so it must not change afterwards. */
  static from(values: Int32Array): PagedInts {
    const pages: Int32Array[] = []
    for (let at = 0; at < values.length; at += PAGE_SIZE) {
      if (at + PAGE_SIZE <= values.length) pages.push(values.subarray(at, at + PAGE_SIZE))
      else {
        const last = new Int32Array(PAGE_SIZE)
        last.set(values.subarray(at))
        pages.push(last)
      }
    }
    return new PagedInts(values.length, pages)
  }

  /** The entry at `i`; 0 past the end. */
  get(i: number): number {
    return i < this.length ? this.pages[i >>> PAGE_BITS]![i & PAGE_MASK]! : 0
  }

  /** Entries [from, to) as one array (0 past the end). */
  slice(from = 0, to = this.length): Int32Array {
    const out = new Int32Array(Math.max(0, to - from))
    if (from < this.length) this.copyTo(out, 0, from, Math.min(to, this.length))
    return out
  }

  /** Entries [from, to) copied into `dst` at `at`. */
  copyTo(dst: Int32Array, at: number, from: number, to: number): void {
    for (let i = from; i < to; ) {
      const offset = i & PAGE_MASK
      const n = Math.min(PAGE_SIZE - offset, to - i)
      dst.set(this.pages[i >>> PAGE_BITS]!.subarray(offset, offset + n), at + i - from)
      i += n
    }
  }

  /** The next version, `length` long, to be written: it shares this one's pages until it writes to one. */
  draft(length: number): PagedIntsDraft {
    return new PagedIntsDraft(length, this.pages.slice(0, pageCount(Math.min(length, this.length))), this.length)
  }

  /** Pages this version shares with `other` (tests: what a step copied). */
  sharedPages(other: PagedInts): number {
    let n = 0
    for (let p = 0; p < Math.min(this.pages.length, other.pages.length); p++) if (this.pages[p] === other.pages[p]) n++
    return n
  }
}

class PagedIntsDraft {
  private readonly pages: Int32Array[]
  /** Pages this draft made (its own to write); the others are the previous version's. */
  private readonly own: Uint8Array

  constructor(
    readonly length: number,
    shared: Int32Array[],
    previousLength: number,
  ) {
    this.pages = shared
    this.own = new Uint8Array(pageCount(length))
    // A shorter version ending inside a page: its entries past the end are cleared, in a copy.
    if (length < previousLength && (length & PAGE_MASK) !== 0) this.page(shared.length - 1).fill(0, length & PAGE_MASK)
  }

  /** Page `p`, made this draft's own first (a copy, or zeros past the previous version's end). */
  private page(p: number): Int32Array {
    if (this.own[p]) return this.pages[p]!
    const shared = this.pages[p]
    const page = shared ? shared.slice() : new Int32Array(PAGE_SIZE)
    this.pages[p] = page
    this.own[p] = 1
    return page
  }

  set(i: number, value: number): void {
    if (i >= this.length) throw new RangeError(`entry ${i} past a draft of ${this.length}`)
    this.page(i >>> PAGE_BITS)[i & PAGE_MASK] = value
  }

  /** `values` written from entry `at` on, one page's part at a time (each under a millisecond). */
  *setRange(at: number, values: Int32Array): Generator<void> {
    for (let from = 0; from < values.length; ) {
      const i = at + from
      const offset = i & PAGE_MASK
      const n = Math.min(PAGE_SIZE - offset, values.length - from)
      if (i + n > this.length) throw new RangeError(`entries to ${i + n} past a draft of ${this.length}`)
      this.page(i >>> PAGE_BITS).set(values.subarray(from, from + n), offset)
      from += n
      yield
    }
  }

  /**
   * The version written: pages never written past the previous version's end are zeros. Its
   * pages are no longer this draft's own: a later write here copies them first.
   */
  done(): PagedInts {
    for (let p = 0; p < this.own.length; p++) if (!this.pages[p]) this.page(p)
    this.own.fill(0)
    return new PagedInts(this.length, this.pages.slice())
  }
}
