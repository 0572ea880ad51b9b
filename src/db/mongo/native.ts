/**
 * The one boundary between Payload's MongoDB adapter and the driver: the native `Db`,
 * `MongoClient` and typed `Collection<T>`s of Payload's collections. The adapter's models
 * exist before it connects; the native handles exist only once it has, which is checked
 * here at run time (by their methods, not their class: src/db/mongo/driverErrors), so a call
 * before connecting fails with the driver's own MongoNotConnectedError.
 */
import { MongoNotConnectedError, ObjectId, type Collection, type Db, type Document, type MongoClient } from 'mongodb'
import type { Payload } from 'payload'

import { hasMethods } from './driverErrors'

const notConnected = () => new MongoNotConnectedError('Client must be connected before running operations')

/** The driver's Db behind Payload's mongoose connection. */
export function nativeDb(payload: Payload): Db {
  const db: unknown = payload.db.connection?.db
  if (hasMethods<Db>(db, 'collection', 'command', 'admin')) return db
  throw notConnected()
}

/** The driver's MongoClient behind Payload's mongoose connection (sessions, transactions). */
export function nativeClient(payload: Payload): MongoClient {
  const client: unknown = payload.db.connection?.getClient()
  if (hasMethods<MongoClient>(client, 'startSession', 'db', 'close')) return client
  throw notConnected()
}

/** The MongoDB collection name Payload gave a collection slug (from its model, known before connecting). */
export function collectionName(payload: Payload, slug: string): string {
  const model = payload.db.collections?.[slug]
  if (!model) throw new Error(`Payload has no MongoDB model for the collection "${slug}".`)
  return model.collection.collectionName
}

/** A typed driver collection for one of Payload's collections. */
export function payloadCollection<T extends Document>(payload: Payload, slug: string): Collection<T> {
  const name = collectionName(payload, slug)
  return nativeDb(payload).collection<T>(name)
}

const HEX_ID = /^[0-9a-f]{24}$/i

export const isHexId = (id: string): boolean => HEX_ID.test(id)

export const oid = (hex: string): ObjectId => new ObjectId(hex)

/** Only the well-formed ids (a malformed one can match nothing anyway). */
export const oids = (ids: string[]): ObjectId[] => ids.filter(isHexId).map(oid)
