/**
 * The follow-up outbox's collection on MongoDB (raw_, beside Payload's), its indexes and its
 * reads. Its writes are plans (src/db/workflow/followUpOutbox.ts, ./planApplier): jobs are
 * upserted in the decision's own transaction, keyed by a unique (contentId, kind) index so
 * queuing twice keeps one job; a claim is one findOneAndUpdate, which the server applies to
 * one document atomically, so of concurrent claimers exactly one gets a given job.
 */
import type { Collection, Db, ObjectId } from 'mongodb'
import type { Payload } from 'payload'

import type { FollowUpDepth, FollowUpKind, FollowUpRow, FollowUpStatus } from '../moderationTypes'
import { nativeDb } from './native'

export const OUTBOX_COLLECTION = 'raw_follow_ups'

type OutboxDoc = {
  _id: ObjectId
  contentId: string
  kind: FollowUpKind
  status: FollowUpStatus
  claimedBy: string | null
  claimedUntil: Date | null
  attempts: number
  nextRunAt: Date
  lastError: string | null
  createdAt: Date
  updatedAt: Date
}

const outboxOf = (db: Db): Collection<OutboxDoc> => db.collection<OutboxDoc>(OUTBOX_COLLECTION)

const prepared = new WeakMap<Db, Promise<unknown>>()

/**
 * The outbox collection and its indexes, created once per connection. Called before a
 * transaction that writes to it: creating a collection inside one is not allowed everywhere.
 */
export async function prepareOutbox(payload: Payload): Promise<Collection<OutboxDoc>> {
  const db = nativeDb(payload)
  const collection = outboxOf(db)
  let ready = prepared.get(db)
  if (!ready) {
    ready = Promise.all([
      collection.createIndex({ contentId: 1, kind: 1 }, { unique: true }),
      collection.createIndex({ status: 1, nextRunAt: 1 }),
    ])
    prepared.set(db, ready)
    ready.catch(() => prepared.delete(db))
  }
  await ready
  return collection
}

const jobs = (payload: Payload) => prepareOutbox(payload)

export async function listFollowUpsMongo(payload: Payload, contentId: string): Promise<FollowUpRow[]> {
  const outbox = await jobs(payload)
  const docs = await outbox.find({ contentId }).sort({ createdAt: 1, kind: 1 }).toArray()
  return docs.map((d) => ({
    id: d._id.toHexString(),
    contentId: d.contentId,
    kind: d.kind,
    status: d.status,
    attempts: d.attempts,
    claimedBy: d.claimedBy,
    nextRunAt: d.nextRunAt,
    lastError: d.lastError,
  }))
}

/** Counts by state for the metrics scrape (the status index serves the match). */
export async function followUpDepthMongo(payload: Payload, now: Date): Promise<FollowUpDepth> {
  const outbox = await jobs(payload)
  const [queued, running, failed] = await Promise.all([
    outbox.countDocuments({ status: 'queued', $or: [{ claimedUntil: null }, { claimedUntil: { $lt: now } }] }),
    outbox.countDocuments({ status: 'queued', claimedUntil: { $gte: now } }),
    outbox.countDocuments({ status: 'failed' }),
  ])
  return { queued, running, failed }
}
