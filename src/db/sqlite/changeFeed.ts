/**
 * Freshness on SQLite: the raw_versions counters, moved by triggers in every writing
 * transaction of any process (./contentSchema), are read after each write of this process
 * (its write gate lets go: a client reads its own write at once) and every POLL_MS, so a
 * write by another process, a script or a shell is seen within POLL_MS plus the event loop's
 * delay; at 10 ms the stated bound (50 ms) keeps its margin on a loaded machine. A look whose
 * WAL index header (./walIndexHeader) is the one the last look saw has nothing to read: no
 * process committed since, and the counters' statement is skipped (docs/benchmarks.md,
 * *Measurements behind the code*). When `all_content` moved, the content
 * rows written since the last look are read from raw_content_row_changes and marked (their
 * cached pages and items are read again); a record that no longer reaches back, or a bulk
 * load's NULL, marks every row.
 */
import { DOMAINS, type Domain, type FreshnessSink } from '../freshness'
import { statement } from './connection'
import { WalIndexHeader } from './walIndexHeader'
import type { SqliteWrites } from './writes'

export const POLL_MS = 10

const COUNTERS_SQL = 'SELECT json_group_object(name, n) FROM raw_versions'
/** Past this many written rows at once, marking every row is as good. */
const MAX_ROWS = 5_000
const LAST_ROW_CHANGE_SQL = 'SELECT coalesce(max(seq), 0) FROM raw_content_row_changes'
const ROW_CHANGES_SQL = `SELECT min(seq), max(seq), count(*), count(id), json_group_array(id) FROM (
  SELECT seq, id FROM raw_content_row_changes WHERE seq > ? ORDER BY seq LIMIT ${MAX_ROWS + 1})`

type Counters = Partial<Record<Domain, number>>

function readCounters(file: string): Counters {
  const row: unknown = statement(file, COUNTERS_SQL).get([])
  return JSON.parse(Array.isArray(row) && typeof row[0] === 'string' ? row[0] : '{}') as Counters
}

/** The last entry of the record of written rows (undefined: no record, before its migration). */
function lastRowChange(file: string): number | undefined {
  try {
    const row = statement(file, LAST_ROW_CHANGE_SQL).get([]) as unknown[] | undefined
    return Number(row?.[0] ?? 0)
  } catch {
    return undefined
  }
}

/** The content ids written after entry `after`, and the last entry read; rows undefined: mark every row. */
function rowsWrittenSince(file: string, after: number | undefined): { rows?: string[]; last: number | undefined } {
  if (after === undefined) return { last: lastRowChange(file) }
  let row: unknown[] | undefined
  try {
    row = statement(file, ROW_CHANGES_SQL).get([after]) as unknown[] | undefined
  } catch {
    return { last: undefined }
  }
  const [first, last, count, named, ids] = row ?? []
  if (Number(count ?? 0) === 0) return { rows: [], last: after }
  // Pruned past `after`, a NULL ("every row"), or too many to mark one by one.
  if (Number(first) !== after + 1 || named !== count || Number(count) > MAX_ROWS) return { last: Number(last) }
  return { rows: (JSON.parse(String(ids)) as unknown[]).map(String), last: Number(last) }
}

/** Follows the counters of the file `writes` writes to (and looks again at each of its releases); returns its stop. */
export function sqliteChangeFeed(writes: SqliteWrites, sink: FreshnessSink): () => void {
  const file = writes.file
  let last: Counters | undefined
  let lastRow: number | undefined
  const header = WalIndexHeader.of(file)
  const check = () => {
    // Read before the counters: a commit after this read moves the header the next look reads.
    if (!header.moved() && last) return
    let now: Counters
    try {
      now = readCounters(file)
    } catch {
      // No counters table yet (before start-up prepared it) or the file is gone: blind until readable.
      if (last) sink.lost()
      last = undefined
      return
    }
    if (!last) {
      // Every row counts as changed from here (restored marks them all).
      lastRow = lastRowChange(file)
      sink.restored()
    } else {
      const moved = DOMAINS.filter((d) => now[d] !== last![d])
      if (moved.length > 0) {
        // Read after the counters: a row written meanwhile is marked now, its counter seen next time.
        const written = moved.includes('all_content') ? rowsWrittenSince(file, lastRow) : { rows: [], last: lastRow }
        lastRow = written.last
        sink.changed(moved, written.rows)
      }
    }
    last = now
  }
  check()
  const timer = setInterval(check, POLL_MS)
  timer.unref()
  const stopListening = writes.gate.onReleased(check)
  return () => {
    clearInterval(timer)
    stopListening()
  }
}
