/**
 * Duplicate URLs on SQLite: the backfill of `url_key` for rows written before keys existed.
 * The unique index on (url_key, url_key_ordinal) (a migration's) makes a second insert of a
 * key fail, whoever races whom; rows without a key stay out of it (NULLs are distinct).
 * Rows that were already duplicates keep their key and get an ordinal (0 for the oldest,
 * then 1, 2, ...), and every new row is written with ordinal 0: at most one new row per key,
 * legacy copies still findable.
 */
import { urlKeyOf } from '../../platform/urlNormalize'
import { connection } from './connection'
import { TABLES } from './tables'

const BATCH = 500

/** Idempotent: only rows without a key are touched, oldest first, one short transaction per batch. */
export function backfillUrlKeysSqlite(file: string): number {
  const db = connection(file)
  const pick = db.prepare(`SELECT rowid AS r, url FROM ${TABLES.content} WHERE url_key IS NULL ORDER BY created_at, id LIMIT ?`)
  const nextOrdinal = db.prepare(`SELECT coalesce(max(url_key_ordinal) + 1, 0) AS n FROM ${TABLES.content} WHERE url_key = ?`)
  const set = db.prepare(`UPDATE ${TABLES.content} SET url_key = ?, url_key_ordinal = ? WHERE rowid = ? AND url_key IS NULL`)
  const batch = db.transaction((): number => {
    const rows = pick.all(BATCH) as { r: number; url: string | null }[]
    for (const row of rows) {
      const key = urlKeyOf(String(row.url ?? ''))
      const { n } = nextOrdinal.get(key) as { n: number }
      set.run(key, n, row.r)
    }
    return rows.length
  })
  let total = 0
  for (let done = BATCH; done === BATCH; ) {
    done = batch.immediate()
    total += done
  }
  return total
}
