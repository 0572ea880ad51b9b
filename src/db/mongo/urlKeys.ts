/**
 * URL keys on MongoDB: the next free ordinal of a normalised URL (a new item takes 0, copies an
 * older build stored take 1, 2, ...), and the one-time backfill of rows stored before URL keys
 * existed (run by a migration, under the lock: at every start it was a scan of the whole
 * collection, as the unique URL-key index is partial over keyed rows and cannot find the rest).
 */
import type { Collection, ObjectId } from 'mongodb'

import { urlKeyOf } from '../../platform/urlNormalize'
import { BACKFILL_SORT, missingUrlKeyAfter, setUrlKey } from './contentQueries'
import type { ContentDoc } from './documents'

const BACKFILL_BATCH = 500

/** The next free ordinal of each key, from the rows already stored. */
export async function nextOrdinals(content: Collection<ContentDoc>, keys: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  if (keys.length === 0) return out
  const rows = await content
    .aggregate<{ _id: string; max: number | null }>([
      { $match: { urlKey: { $in: keys } } },
      { $group: { _id: '$urlKey', max: { $max: '$urlKeyOrdinal' } } },
    ])
    .toArray()
  for (const r of rows) out.set(r._id, (r.max ?? -1) + 1)
  return out
}

/** Keys for rows written before URL keys existed, in _id order, in batches; idempotent. Answers how many rows it keyed. */
export async function backfillUrlKeys(content: Collection<ContentDoc>): Promise<number> {
  let keyedRows = 0
  let after: ObjectId | undefined
  for (;;) {
    const batch = await content.find(missingUrlKeyAfter(after), { projection: { _id: 1, url: 1 } }).sort(BACKFILL_SORT).limit(BACKFILL_BATCH).toArray()
    if (batch.length === 0) return keyedRows
    after = batch.at(-1)!._id
    keyedRows += batch.length
    const keyed = batch.map((d) => ({ id: d._id, key: urlKeyOf(String(d.url ?? '')) }))
    const next = await nextOrdinals(content, [...new Set(keyed.map((k) => k.key))])
    for (const { id, key } of keyed) {
      const ordinal = next.get(key) ?? 0
      next.set(key, ordinal + 1)
      const { filter, update } = setUrlKey(id, key, ordinal)
      await content.updateOne(filter, update)
    }
    if (batch.length < BACKFILL_BATCH) return keyedRows
  }
}
