/**
 * The follow-up outbox on MongoDB: a raw_ collection beside Payload's. Jobs are upserted in
 * the same transaction as the status move (moderation.ts), keyed by a unique (contentId, kind)
 * index so queuing twice keeps one job. A claim is one findOneAndUpdate: the server applies
 * it to one document atomically, so of concurrent claimers exactly one gets a given job.
 */
import { type ClientSession, type Collection, type Db, ObjectId } from 'mongodb'
import type { Payload } from 'payload'

import type {
  ClaimedFollowUp,
  ClaimRequest,
  FollowUpDepth,
  FollowUpFailure,
  FollowUpKind,
  FollowUpRow,
  FollowUpStatus,
} from '../moderationTypes'
import { nativeDb, oid } from './native'

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
export async function prepareOutbox(db: Db): Promise<Collection<OutboxDoc>> {
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

/** Inside the status move's transaction: queues the jobs; an existing (item, kind) job is kept. */
export async function enqueueFollowUpsMongo(
  db: Db,
  contentId: string,
  kinds: FollowUpKind[],
  at: Date,
  session: ClientSession,
): Promise<void> {
  const outbox = outboxOf(db)
  for (const kind of kinds) {
    await outbox.updateOne(
      { contentId, kind },
      {
        $setOnInsert: {
          _id: new ObjectId(),
          status: 'queued',
          claimedBy: null,
          claimedUntil: null,
          attempts: 0,
          nextRunAt: at,
          lastError: null,
          createdAt: at,
          updatedAt: at,
        },
      },
      { upsert: true, session },
    )
  }
}

const jobs = (payload: Payload) => prepareOutbox(nativeDb(payload))

export async function claimFollowUpMongo(payload: Payload, claim: ClaimRequest): Promise<ClaimedFollowUp | null> {
  const outbox = await jobs(payload)
  const doc = await outbox.findOneAndUpdate(
    {
      status: 'queued',
      nextRunAt: { $lte: claim.now },
      $or: [{ claimedUntil: null }, { claimedUntil: { $lt: claim.now } }],
    },
    {
      $set: { claimedBy: claim.worker, claimedUntil: new Date(claim.now.getTime() + claim.leaseMs), updatedAt: claim.now },
      $inc: { attempts: 1 },
    },
    { sort: { nextRunAt: 1 }, returnDocument: 'after' },
  )
  return doc ? { id: doc._id.toHexString(), contentId: doc.contentId, kind: doc.kind, attempts: doc.attempts } : null
}

export async function completeFollowUpMongo(payload: Payload, id: string, worker: string, at: Date): Promise<boolean> {
  const outbox = await jobs(payload)
  const result = await outbox.updateOne(
    { _id: oid(id), claimedBy: worker, status: 'queued' },
    { $set: { status: 'done', claimedUntil: null, lastError: null, updatedAt: at } },
  )
  return result.modifiedCount === 1
}

export async function failFollowUpMongo(payload: Payload, f: FollowUpFailure): Promise<boolean> {
  const outbox = await jobs(payload)
  const result = await outbox.updateOne(
    { _id: oid(f.id), claimedBy: f.worker, status: 'queued' },
    {
      $set: {
        status: f.retryAt ? 'queued' : 'failed',
        ...(f.retryAt ? { nextRunAt: f.retryAt } : {}),
        claimedUntil: null,
        lastError: f.error,
        updatedAt: f.at,
      },
    },
  )
  return result.modifiedCount === 1
}

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

/** In the soft delete's transaction: the item's jobs still queued are dropped. */
export async function cancelFollowUpsMongo(db: Db, contentId: string, session: ClientSession): Promise<void> {
  await outboxOf(db).deleteMany({ contentId, status: 'queued' }, { session })
}
