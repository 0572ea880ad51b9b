/**
 * Reorders against concurrent inserts on MongoDB. A reorder checks, inside its transaction, that
 * its list is exactly the parent's children; but a transaction reads a snapshot, and a sibling
 * another transaction inserts meanwhile is neither seen nor a write conflict, so the reorder
 * would commit with the new sibling unordered. Both therefore write one guard document per
 * sibling list (`raw_sibling_guards`, _id `<collection>|<parent field>|<parent id>`): the reorder
 * (the applier's expectIds step) and every save that adds a child to that list (the collections'
 * hooks, in the save's transaction). Two such transactions conflict; the one the server aborts
 * runs again (the reorder then sees the sibling: `mismatch`). SQLite needs none of this: its
 * writers take the database's write lock before they read.
 */
import type { ClientSession, Db } from 'mongodb'
import type { PayloadRequest } from 'payload'

import type { Where } from '../writePlan'
import { Ref } from '../writePlan'
import { nativeDb } from './native'
import { openTransactionOf } from './payloadTransactions'

export const SIBLING_GUARDS = 'raw_sibling_guards'

type Guard = { _id: string; writes: number }

export const siblingGuardKey = (collection: string, parentField?: string, parentId?: string | null): string =>
  `${collection}|${parentField ?? ''}|${parentId ?? ''}`

/** The guard of the list an expectIds step reads: no parent, or one parent given by reference. */
export function guardKeyOfWhere(collection: string, where: Where): string {
  const [entry, ...rest] = Object.entries(where)
  if (!entry || rest.length > 0 || !(entry[1] instanceof Ref)) return siblingGuardKey(collection)
  return siblingGuardKey(collection, entry[0], entry[1].id)
}

export async function touchSiblingGuard(db: Db, key: string, session?: ClientSession): Promise<void> {
  await db.collection<Guard>(SIBLING_GUARDS).updateOne({ _id: key }, { $inc: { writes: 1 } }, { upsert: true, session })
}

/** A save in `req` adds a child to a sibling list: its guard is written in the save's transaction. */
export async function noteSiblingWriteMongo(req: PayloadRequest, collection: string, parentField?: string, parentId?: string | null): Promise<void> {
  const open = await openTransactionOf(req)
  await touchSiblingGuard(nativeDb(req.payload), siblingGuardKey(collection, parentField, parentId), open?.session)
}
