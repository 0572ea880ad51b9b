/**
 * The audit trail on MongoDB: created through Payload's adapter in the caller's transaction
 * (its session, registered under `tx.req.transactionID`), so the event commits with the change.
 */
import { ValidationError, type Payload } from 'payload'

import type { ModerationEventInput, RecordedUpdate, RecordedUpdateResult } from '../moderationEventTypes'
import { cancelFollowUpsMongo } from './followUpOutbox'
import { oid, payloadCollection } from './native'
import { inTransaction, type Tx } from './transaction'
import { bumpVersion } from './versions'
import { uniqueViolationField } from '../uniqueViolation'

export async function insertModerationEventMongo(payload: Payload, tx: Tx, e: ModerationEventInput): Promise<void> {
  await payload.db.create({
    collection: 'moderation-events',
    data: {
      actor: e.actorId,
      action: e.action,
      targetCollection: e.targetCollection,
      targetId: e.targetId,
      targetSlug: e.targetSlug,
      stateBefore: e.stateBefore,
      stateAfter: e.stateAfter,
      reason: e.reason,
      at: e.at.toISOString(),
    },
    req: tx.req,
  })
}

class Unchanged extends Error {}

/** One guarded updateOne, its counter and its event in one transaction. */
export async function recordedUpdateMongo(payload: Payload, u: RecordedUpdate): Promise<RecordedUpdateResult> {
  try {
    return await inTransaction(payload, async (tx) => {
      const result = await payloadCollection(payload, u.collection).updateOne(
        { _id: oid(u.id), ...u.expect },
        { $set: { ...u.set, updatedAt: u.event.at } },
        { session: tx.session },
      )
      if (result.modifiedCount !== 1) throw new Unchanged()
      await bumpVersion(tx.db, u.domain, tx.session)
      if (u.cancelFollowUps) await cancelFollowUpsMongo(tx.db, u.id, tx.session)
      await insertModerationEventMongo(payload, tx, { ...u.event, targetCollection: u.collection, targetId: u.id })
      u.afterWrite?.()
      return 'updated' as const
    })
  } catch (err) {
    if (err instanceof Unchanged) return 'unchanged'
    if (uniqueViolationField(err) !== undefined) return 'taken'
    if (err instanceof ValidationError) return 'taken'
    throw err
  }
}
