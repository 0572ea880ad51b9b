/**
 * Content records kept by row, each while its row is unmarked (./generations): a page read
 * again after a write takes the rows it shows from here and reads only the others. A record is
 * kept with the row clock noted before it was read, so one written meanwhile is stale at once.
 */
import { cacheCounter } from '../../platform/metrics'
import type { ContentRecord } from '../contentTypes'
import type { RowFreshness, RowStamp } from './generations'

/**
 * The rows of the pages a busy process serves again after each write (the newest page, the hot
 * tags' pages, the hot searches' first pages), a few megabytes; more let a stream of new searches
 * fill it and grow the process's peak (docs/benchmarks.md, *Measurements behind the code*).
 */
const MAX_RECORDS = 4_000

type Kept = RowStamp & { record: ContentRecord }

export class RowRecords {
  private readonly kept = new Map<number, Kept>()
  /** A read is a hit when every row it shows was kept and unmarked. */
  private readonly lookups = cacheCounter('row_records')

  /**
   * The records of `rowids`, in their order (a rowid with no row is left out); `readMissing`
   * reads the others, as [rowid, record] pairs in any order.
   */
  read(rowids: ArrayLike<number>, rows: RowFreshness, readMissing: (rowids: number[]) => [number, ContentRecord][]): ContentRecord[] {
    if (this.lookups.off) {
      this.lookups.miss(rows.clock())
      const read = new Map(readMissing(Array.from(rowids)))
      return Array.from(rowids, (rowid) => read.get(rowid)).filter((r): r is ContentRecord => r !== undefined)
    }
    const found = new Array<ContentRecord | undefined>(rowids.length)
    const missing: number[] = []
    for (let i = 0; i < rowids.length; i++) {
      const kept = this.kept.get(rowids[i]!)
      if (kept && rows.fresh(kept)) found[i] = kept.record
      else missing.push(rowids[i]!)
    }
    const clock = rows.clock()
    if (missing.length === 0) this.lookups.hit(clock)
    else {
      this.lookups.miss(clock)
      const read = new Map(readMissing(missing))
      for (const [rowid, record] of read) this.keep(rowid, { record, ids: [record.id], clock })
      for (let i = 0; i < rowids.length; i++) found[i] ??= read.get(rowids[i]!)
    }
    return found.filter((r): r is ContentRecord => r !== undefined)
  }

  private keep(rowid: number, kept: Kept): void {
    this.kept.delete(rowid)
    this.kept.set(rowid, kept)
    if (this.kept.size > MAX_RECORDS) this.kept.delete(this.kept.keys().next().value!)
  }
}
