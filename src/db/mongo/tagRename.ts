/**
 * Tag rename on MongoDB: one multi-document transaction (needs the replica set) over the
 * tag, every content item's tagSlugs (positional arrayFilters keep order) and the audit row.
 */
import type { Payload } from 'payload'

import type { TagRenameInput, TagRenameResult } from '../renameTypes'

type Session = { withTransaction(fn: () => Promise<void>): Promise<unknown>; endSession(): Promise<void> }
type Native = {
  findOne(filter: object, options?: object): Promise<{ _id: unknown } | null>
  updateOne(filter: object, update: object, options?: object): Promise<{ modifiedCount: number }>
  updateMany(filter: object, update: object, options?: object): Promise<{ modifiedCount: number }>
  insertOne(doc: object, options?: object): Promise<unknown>
}
type MongoAdapter = {
  collections: Record<string, { collection: Native }>
  connection: { getClient(): { startSession(): Session } }
  mongoose: { Types: { ObjectId: new (id?: string) => unknown } }
}

class Outcome extends Error {
  constructor(readonly result: TagRenameResult) {
    super(result.outcome)
  }
}

export async function renameTagMongo(payload: Payload, input: TagRenameInput): Promise<TagRenameResult> {
  const db = payload.db as unknown as MongoAdapter
  const tags = db.collections.tags!.collection
  const content = db.collections.content!.collection
  const audit = db.collections['tag-renames']!.collection
  const session = db.connection.getClient().startSession()
  let result: TagRenameResult = { outcome: 'not_found' }
  try {
    await session.withTransaction(async () => {
      const tag = await tags.findOne({ slug: input.oldSlug }, { session })
      if (!tag) throw new Outcome({ outcome: 'not_found' })
      if (await tags.findOne({ slug: input.newSlug }, { session })) throw new Outcome({ outcome: 'taken' })
      await tags.updateOne({ _id: tag._id }, { $set: { slug: input.newSlug, updatedAt: input.at } }, { session })
      const updated = await content.updateMany(
        { tagSlugs: input.oldSlug },
        { $set: { 'tagSlugs.$[old]': input.newSlug, updatedAt: input.at } },
        { session, arrayFilters: [{ old: input.oldSlug }] },
      )
      input.afterContentUpdate?.()
      await audit.insertOne(
        {
          actor: input.actorId ? new db.mongoose.Types.ObjectId(input.actorId) : null,
          oldSlug: input.oldSlug,
          newSlug: input.newSlug,
          contentCount: updated.modifiedCount,
          at: input.at,
          createdAt: input.at,
          updatedAt: input.at,
        },
        { session },
      )
      result = { outcome: 'renamed', contentCount: updated.modifiedCount }
    })
  } catch (err) {
    if (err instanceof Outcome) return err.result
    throw err
  } finally {
    await session.endSession()
  }
  return result
}
