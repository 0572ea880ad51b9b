/**
 * Conditional status moves on MongoDB: updateOne guarded by the current status, with the
 * content counter and the move's follow-up jobs (followUpOutbox.ts), in one transaction.
 */
import type { Filter, UpdateFilter } from 'mongodb'
import type { Payload } from 'payload'

import type { StatusTransition } from '../moderationTypes'
import type { ContentDoc } from './documents'
import { enqueueFollowUpsMongo, prepareOutbox } from './followUpOutbox'
import { insertModerationEventMongo } from './moderationEvents'
import { nativeDb, oid, payloadCollection } from './native'
import { inTransaction } from './transaction'
import { bumpVersion } from './versions'

/** Guarded by the status the request read, on an active item (a deleted one never moves). */
export const transitionFilter = (t: StatusTransition): Filter<ContentDoc> => ({ _id: oid(t.id), status: t.from, isActive: { $ne: false } })
export const transitionUpdate = (t: StatusTransition): UpdateFilter<ContentDoc> => ({
  $set: { status: t.to, approvedAt: t.approvedAt, rejectionReason: t.rejectionReason, updatedAt: t.at },
})

export async function transitionStatusMongo(payload: Payload, t: StatusTransition): Promise<boolean> {
  await prepareOutbox(nativeDb(payload))
  return inTransaction(payload, async (tx) => {
    const { session, db } = tx
    const result = await payloadCollection<ContentDoc>(payload, 'content').updateOne(transitionFilter(t), transitionUpdate(t), { session })
    if (result.modifiedCount !== 1) return false
    await bumpVersion(db, 'content', session)
    await enqueueFollowUpsMongo(db, t.id, t.followUps, t.at, session)
    await insertModerationEventMongo(payload, tx, { ...t.event, targetCollection: 'content', targetId: t.id })
    t.afterMove?.()
    return true
  })
}
