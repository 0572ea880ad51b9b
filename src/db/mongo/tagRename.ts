/**
 * Tag rename on MongoDB, one multi-document transaction: the tag's slug and the audit row
 * through Payload's adapter operations (joined to the transaction through its session
 * table), every content item's tagSlugs through the driver (a positional arrayFilters
 * update keeps the order; Payload has no such operation), and both change counters.
 * A duplicate-key race on the new slug is "taken", like the check before it.
 */
import type { Payload } from 'payload'

import type { TagRenameInput, TagRenameResult } from '../renameTypes'
import { renameInContent } from './contentQueries'
import type { ContentDoc } from './documents'
import { insertModerationEventMongo } from './moderationEvents'
import { payloadCollection } from './native'
import { inTransaction } from './transaction'
import { bumpVersion } from './versions'
import { uniqueViolationField } from '../uniqueViolation'


class Outcome extends Error {
  constructor(readonly result: TagRenameResult) {
    super(result.outcome)
  }
}

/** A unique-index violation, raw or as Payload's adapter reports it (ValidationError on the field). */
export function isDuplicateSlug(err: unknown): boolean {
  return uniqueViolationField(err) === 'slug'
}

export async function renameTagMongo(payload: Payload, input: TagRenameInput): Promise<TagRenameResult> {
  try {
    return await inTransaction(payload, async (tx) => {
      const { session, req, db } = tx
      const tag = await payload.db.findOne({ collection: 'tags', where: { slug: { equals: input.oldSlug } }, req })
      if (!tag) throw new Outcome({ outcome: 'not_found' })
      const taken = await payload.db.findOne({ collection: 'tags', where: { slug: { equals: input.newSlug } }, req })
      if (taken) throw new Outcome({ outcome: 'taken' })
      await payload.db.updateOne({ collection: 'tags', id: tag.id, data: { slug: input.newSlug, updatedAt: input.at.toISOString() }, req })
      const rename = renameInContent(input.oldSlug, input.newSlug, input.at)
      const updated = await payloadCollection<ContentDoc>(payload, 'content').updateMany(rename.filter, rename.update, {
        session,
        arrayFilters: rename.arrayFilters,
      })
      input.afterContentUpdate?.()
      await payload.db.create({
        collection: 'tag-renames',
        data: {
          actor: input.actorId,
          oldSlug: input.oldSlug,
          newSlug: input.newSlug,
          contentCount: updated.modifiedCount,
          at: input.at.toISOString(),
        },
        req,
      })
      const count = updated.modifiedCount
      await insertModerationEventMongo(payload, tx, {
        actorId: input.actorId,
        action: 'tag.rename',
        targetCollection: 'tags',
        targetId: String(tag.id),
        targetSlug: input.newSlug,
        stateBefore: input.oldSlug,
        stateAfter: input.newSlug,
        reason: `${count} content item${count === 1 ? '' : 's'} followed`,
        at: input.at,
      })
      await bumpVersion(db, 'taxonomy', session)
      if (updated.modifiedCount > 0) await bumpVersion(db, 'content', session)
      return { outcome: 'renamed', contentCount: updated.modifiedCount }
    })
  } catch (err) {
    if (err instanceof Outcome) return err.result
    if (isDuplicateSlug(err)) return { outcome: 'taken' }
    throw err
  }
}
