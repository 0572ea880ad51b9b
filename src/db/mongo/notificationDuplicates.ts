/**
 * Notifications are unique per (content, kind) (collections/Notifications.ts). Databases from
 * builds before the outbox can hold duplicates (two processes ran the same job), on which
 * Payload's unique index build would fail and stop the start. Before that build, while the
 * index does not exist yet, the later copies are deleted (the earliest _id of each pair is
 * kept). Idempotent. (SQLite's unique index, `content_kind_idx`, comes with the table in its
 * initial migration.)
 */
import type { Db, Document, ObjectId } from 'mongodb'

/** Groups holding more than one notification for one (content, kind): every _id but the earliest. */
export const duplicateNotificationsPipeline = (): Document[] => [
  { $sort: { _id: 1 } },
  { $group: { _id: { content: '$content', kind: '$kind' }, ids: { $push: '$_id' }, n: { $sum: 1 } } },
  { $match: { n: { $gt: 1 } } },
  { $project: { _id: 0, extra: { $slice: ['$ids', 1, { $subtract: ['$n', 1] }] } } },
]

const isContentKindIndex = (index: Document) =>
  index.unique === true && typeof index.key === 'object' && index.key !== null && Object.keys(index.key).join(',') === 'content,kind'

/** Returns how many duplicates were deleted. */
export async function dropDuplicateNotificationsMongo(db: Db, collection: string): Promise<number> {
  const notifications = db.collection(collection)
  const indexes = await notifications.listIndexes().toArray()
  if (indexes.some(isContentKindIndex)) return 0
  const groups = await notifications.aggregate<{ extra: ObjectId[] }>(duplicateNotificationsPipeline()).toArray()
  const extra = groups.flatMap((g) => g.extra)
  if (extra.length === 0) return 0
  const { deletedCount } = await notifications.deleteMany({ _id: { $in: extra } })
  return deletedCount
}
