/** Conditional status moves on MongoDB: updateOne guarded by the current status. */
import type { Payload } from 'payload'

import type { StatusTransition } from '../moderationTypes'

type Native = { updateOne(filter: object, update: object): Promise<{ modifiedCount: number }> }
type MongoAdapter = {
  collections: Record<string, { collection: Native }>
  mongoose: { Types: { ObjectId: new (id: string) => unknown } }
}

export async function transitionStatusMongo(payload: Payload, t: StatusTransition): Promise<boolean> {
  const db = payload.db as unknown as MongoAdapter
  const result = await db.collections.content!.collection.updateOne(
    { _id: new db.mongoose.Types.ObjectId(t.id), status: t.from },
    { $set: { status: t.to, approvedAt: t.approvedAt, rejectionReason: t.rejectionReason, updatedAt: t.at } },
  )
  return result.modifiedCount === 1
}
