/**
 * Change counters on MongoDB: one document per versioned domain in `raw_versions`, moved
 * with `$inc` by every write to the domain, in the same transaction (the writer's session)
 * so a version never moves without the data or the data without the version, whatever
 * the clocks of the app processes say.
 */
import type { ClientSession, Db, Filter, UpdateFilter } from 'mongodb'
import type { Payload, PayloadRequest } from 'payload'

import type { Domain } from '../versionDomains'
import { nativeDb } from './native'

export const VERSIONS_COLLECTION = 'raw_versions'

export type VersionDoc = { _id: Domain; n: number }

export const versionFilter = (domain: Domain): Filter<VersionDoc> => ({ _id: domain })

export const bumpUpdate = (): UpdateFilter<VersionDoc> => ({ $inc: { n: 1 } })

/** Counters start at the clock, so a re-created collection never repeats a version seen before. */
export const seedUpdate = (now: number): UpdateFilter<VersionDoc> => ({ $setOnInsert: { n: now } })

export function versionsOf(db: Db) {
  return db.collection<VersionDoc>(VERSIONS_COLLECTION)
}

/** Creates the counters that do not exist yet (start-up). */
export async function seedVersions(db: Db, domains: readonly Domain[], now = Date.now()): Promise<void> {
  for (const domain of domains) {
    await versionsOf(db).updateOne(versionFilter(domain), seedUpdate(now), { upsert: true })
  }
}

/** Moves a domain's counter, inside `session`'s transaction when given. */
export async function bumpVersion(db: Db, domain: Domain, session?: ClientSession): Promise<void> {
  await versionsOf(db).updateOne(versionFilter(domain), bumpUpdate(), { upsert: true, ...(session ? { session } : {}) })
}

/** One key lookup. */
export async function readVersion(db: Db, domain: Domain): Promise<string> {
  const doc = await versionsOf(db).findOne(versionFilter(domain), { projection: { n: 1 } })
  return String(doc?.n ?? '')
}

/** The session of the Payload transaction `req` belongs to, if any. */
export async function sessionOfRequest(payload: Payload, req: Pick<PayloadRequest, 'transactionID'>): Promise<ClientSession | undefined> {
  const id = await req.transactionID
  if (id == null) return undefined
  const session: ClientSession | undefined = payload.db.sessions?.[id]
  return session?.inTransaction() ? session : undefined
}

/** For collection hooks: moves the counter in the hook's own transaction. */
export async function bumpVersionForRequest(req: PayloadRequest, domain: Domain): Promise<void> {
  const session = await sessionOfRequest(req.payload, req)
  await bumpVersion(nativeDb(req.payload), domain, session)
}
