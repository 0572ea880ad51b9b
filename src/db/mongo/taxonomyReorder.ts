/**
 * Taxonomy reorder on MongoDB, one multi-document transaction: the parent's children are read,
 * checked against the list and each displayOrder written through Payload's adapter operations
 * (joined to the transaction through its session table), and the taxonomy counter moves.
 */
import type { Payload, Where } from 'payload'

import { type ReorderInput, type ReorderResult, sameMembers } from '../reorderTypes'
import { inTransaction } from './transaction'
import { bumpVersion } from './versions'

class Mismatch extends Error {
  constructor(readonly actual: string[]) {
    super('mismatch')
  }
}

export async function reorderTaxonomyMongo(payload: Payload, input: ReorderInput): Promise<ReorderResult> {
  try {
    return await inTransaction(payload, async ({ session, req, db }) => {
      const where: Where = input.parent ? { [input.parent.field]: { equals: input.parent.id } } : {}
      const found = await payload.db.find({ collection: input.collection, where, limit: 0, pagination: false, req })
      const actual = found.docs.map((d) => String(d.id))
      if (!sameMembers(actual, input.orderedIds)) throw new Mismatch(actual)
      for (const [index, id] of input.orderedIds.entries()) {
        await payload.db.updateOne({ collection: input.collection, id, data: { displayOrder: index, updatedAt: input.at.toISOString() }, req })
        if (index === 0) input.afterFirstWrite?.()
      }
      await bumpVersion(db, 'taxonomy', session)
      return { outcome: 'reordered' } as const
    })
  } catch (err) {
    if (err instanceof Mismatch) return { outcome: 'mismatch', actual: err.actual }
    throw err
  }
}
