/**
 * A tag rename on MongoDB at any number of holders. One transaction over every holder meets the
 * server's 60 s transaction lifetime, its cache limit and WriteConflict re-runs at 100,000 holders,
 * so the rename runs in steps, recorded first and resumed at start, none of which leaves an item
 * showing a tag that does not exist:
 *
 * 1. begin (one transaction): the tag still has its old slug; the new slug is claimed (taken:
 *    nothing written); the run is recorded (`raw_tag_rename_runs`, _id = the tag's: one rename of
 *    a tag at a time).
 * 2. add, in batches of 1,000 plain writes: each holder of the old slug gets the new one beside it
 *    (in its place). The new slug is not a tag yet, so answers leave it out (hiddenTagSlugs).
 * 3. switch (one transaction, the workflow plan's applier): the tag takes the new slug, the rename
 *    record (with how many items followed) and the audit event are written. From here answers
 *    show the new slug and leave the old one out.
 * 4. drop, in batches: the old slug leaves every holder (one that somehow holds only the old slug
 *    gets the new one instead, so no item loses the tag).
 * 5. end: the old slug's claim is released (it was kept so that no new tag could take the old
 *    slug while items still held it) and the run is deleted.
 *
 * Every step is idempotent; a process that stops half-way leaves the run, and the next start or
 * the next sweep carries it on from where the tag's slug says it is (resumeTagRenamesMongo).
 *
 * A run has one carrier at a time (issue 55.1): the request that began it holds a lease on it
 * (./runLease, taken in the begin transaction, heartbeated), and a start or a sweep carries on only
 * a run whose lease expired. A carrier whose switch finds the tag no longer under the old slug
 * reads the tag again: under the new slug, the switch happened (another carrier's), and it drops
 * the old slug; only a tag that is gone is abandoned. Every batch is retried after a failover
 * (its filter makes a second run harmless), and each step begins with the lease's fence.
 */
import { type Collection, type Document, ObjectId } from 'mongodb'
import type { Payload } from 'payload'

import { retryTransient } from '../transientRetry'
import { generationsOf } from '../freshness'
import type { TagRenameInput, TagRenameResult } from '../renameTypes'
import { tagRenameRecordSteps } from '../workflow/tagRenamePlan'
import { DONE, PlanStop, ref, type WritePlan } from '../writePlan'
import { ApiError } from '../../platform/errors'
import { logger } from '../../platform/logging'
import type { ContentDoc, TagDoc } from './documents'
import { nativeDb, payloadCollection } from './native'
import { applyPlanMongo } from './planApplier'
import { isRetryableBatchError } from './retry'
import { claimExpiredRun, type HeldRun, holdRun, type Leased, leaseFromNow, type LeaseTiming, newHolder, RUN_LEASE, RunLeaseLost } from './runLease'
import { inTransaction } from './transaction'
import { uniqueViolationFieldMongo as uniqueViolationField } from './uniqueViolation'

export const TAG_RENAME_RUNS = 'raw_tag_rename_runs'

/** Holders moved per write: small enough for one short write, large enough to end soon. */
export const RENAME_BATCH = 1_000

type RenameRun = Leased & { _id: ObjectId; oldSlug: string; newSlug: string; actor: string | null; at: Date }
type ClaimDoc = { _id: ObjectId; slug: string; entity: string; owner: string }

function collections(payload: Payload) {
  return {
    content: payloadCollection<ContentDoc>(payload, 'content'),
    tags: payloadCollection<TagDoc>(payload, 'tags'),
    claims: payloadCollection<ClaimDoc>(payload, 'slug-claims'),
    runs: nativeDb(payload).collection<RenameRun>(TAG_RENAME_RUNS),
  }
}

/** `slugs` with `add` right after `beside` (the order an item's tags are shown in is kept). */
const withBeside = (beside: string, add: string): Document[] => [
  {
    $set: {
      tagSlugs: {
        $reduce: {
          input: '$tagSlugs',
          initialValue: [],
          in: { $concatArrays: ['$$value', { $cond: [{ $eq: ['$$this', beside] }, [beside, add], ['$$this']] }] },
        },
      },
    },
  },
]

/** A batch's read or write, again after a failover (the driver retries neither a multi-document write nor this read). */
const retryBatch = <T>(op: () => Promise<T>): Promise<T> => retryTransient(op, isRetryableBatchError)

/** Runs `write` on up to RENAME_BATCH holders matching `filter` at a time, until none is left; answers how many it wrote. */
async function inBatches(payload: Payload, content: Collection<ContentDoc>, filter: Document, update: Document | Document[], lease: HeldRun): Promise<number> {
  let written = 0
  for (;;) {
    lease.fence()
    const ids = (await retryBatch(() => content.find(filter, { projection: { _id: 1 }, limit: RENAME_BATCH }).toArray())).map((d) => d._id)
    if (ids.length === 0) return written
    const r = await retryBatch(() => content.updateMany({ _id: { $in: ids }, ...filter }, update))
    written += r.modifiedCount
    // This process reads its own writes at once (other processes by their change streams).
    generationsOf(payload.db).changed(['content'], ids.map((id) => id.toHexString()))
  }
}

/** Step 2: the new slug beside the old one in every holder. */
async function addNewSlug(payload: Payload, run: RenameRun, lease: HeldRun): Promise<void> {
  const { content } = collections(payload)
  const update = [...withBeside(run.oldSlug, run.newSlug), { $set: { updatedAt: run.at } }]
  await inBatches(payload, content, { tagSlugs: { $eq: run.oldSlug, $ne: run.newSlug } }, update, lease)
}

/** Step 3: the tag takes its new slug; the rename record and the audit event, with how many items followed. */
async function switchSlug(payload: Payload, run: RenameRun): Promise<TagRenameResult> {
  const { content } = collections(payload)
  const followed = await content.countDocuments({ tagSlugs: run.newSlug })
  const tagId = run._id.toHexString()
  const input = { oldSlug: run.oldSlug, newSlug: run.newSlug, actorId: run.actor, at: run.at }
  const plan: WritePlan = {
    name: 'tag_rename_switch',
    // Which of the two slugs answers leave out flips: every answer keyed on taxonomy is read again.
    domains: ['taxonomy'],
    steps: [
      { op: 'update', target: 'tags', where: { id: ref(tagId), slug: run.oldSlug }, set: { slug: run.newSlug, updatedAt: run.at }, one: 'not_found' },
      ...tagRenameRecordSteps(tagId, input, () => followed),
    ],
  }
  const result = await applyPlanMongo(payload, plan)
  return result.outcome === DONE ? { outcome: 'renamed', contentCount: followed } : { outcome: 'not_found' }
}

/** Steps 4 and 5: the old slug leaves every holder, its claim is released, the run ends. */
async function dropOldSlug(payload: Payload, run: RenameRun, lease: HeldRun): Promise<void> {
  const { content, claims } = collections(payload)
  await inBatches(payload, content, { tagSlugs: { $all: [run.oldSlug, run.newSlug] } }, { $pull: { tagSlugs: run.oldSlug }, $set: { updatedAt: run.at } }, lease)
  // A holder that took the old slug after step 2 (an edit racing the rename) keeps the tag under its new slug.
  lease.fence()
  const replace = { $set: { 'tagSlugs.$[old]': run.newSlug, updatedAt: run.at } }
  const stragglers = await retryBatch(() => content.updateMany({ tagSlugs: run.oldSlug }, replace, { arrayFilters: [{ old: run.oldSlug }] }))
  if (stragglers.modifiedCount > 0) generationsOf(payload.db).changed(['content'])
  lease.fence()
  await claims.deleteOne({ slug: run.oldSlug, entity: 'tag', owner: run._id.toHexString() })
  await endRun(payload, run, lease)
}

/** A run whose tag is gone (deleted meanwhile): the new slug leaves the holders it was added to, its claim is released. */
async function abandon(payload: Payload, run: RenameRun, lease: HeldRun): Promise<void> {
  const { content, claims } = collections(payload)
  await inBatches(payload, content, { tagSlugs: { $all: [run.oldSlug, run.newSlug] } }, { $pull: { tagSlugs: run.newSlug } }, lease)
  lease.fence()
  await claims.deleteOne({ slug: run.newSlug, entity: 'tag', owner: run._id.toHexString() })
  await endRun(payload, run, lease)
}

/** The run's record goes, only while this carrier holds it: a lagging one never ends another's run, nor a later rename of the tag. */
async function endRun(payload: Payload, run: RenameRun, lease: HeldRun): Promise<void> {
  lease.fence()
  lease.stop()
  await collections(payload).runs.deleteOne({ _id: run._id, holder: lease.holder })
  generationsOf(payload.db).changed(['taxonomy'])
}

/**
 * Carries a recorded run on from where its tag's slug says it is, reading the tag again after a
 * switch that found no tag under the old slug (another carrier switched it first).
 */
async function carryOn(payload: Payload, run: RenameRun, lease: HeldRun): Promise<TagRenameResult> {
  const { tags, content } = collections(payload)
  for (let switchTried = false; ; switchTried = true) {
    lease.fence()
    const tag = await tags.findOne({ _id: run._id }, { projection: { slug: 1 } })
    if (tag === null) {
      await abandon(payload, run, lease)
      return { outcome: 'not_found' }
    }
    if (tag.slug === run.newSlug) {
      await dropOldSlug(payload, run, lease)
      return { outcome: 'renamed', contentCount: await content.countDocuments({ tagSlugs: run.newSlug }) }
    }
    if (tag.slug !== run.oldSlug || switchTried) {
      // Under a third slug: not this run's doing, and its holders and claims may be another run's
      // now. Nothing of theirs is touched; this run's record ends.
      logger().warn({ tag: run._id.toHexString(), oldSlug: run.oldSlug, newSlug: run.newSlug, slug: tag.slug }, 'tags.rename_overtaken')
      await endRun(payload, run, lease)
      return { outcome: 'not_found' }
    }
    await addNewSlug(payload, run, lease)
    lease.fence()
    const switched = await switchSlug(payload, run)
    if (switched.outcome === 'renamed') {
      await dropOldSlug(payload, run, lease)
      return switched
    }
  }
}

/** Carries a run on under `lease`: a lost lease leaves the run to whoever holds it now; any other failure lets the lease go for the next sweep. */
async function carryHeld(payload: Payload, run: RenameRun, lease: HeldRun): Promise<TagRenameResult> {
  try {
    return await carryOn(payload, run, lease)
  } catch (err) {
    if (!(err instanceof RunLeaseLost)) await lease.release()
    throw err
  } finally {
    lease.stop()
  }
}

/** POST /tags/<slug>/rename on MongoDB: recorded (step 1), then carried through. */
export async function renameTagMongo(payload: Payload, tagId: string, input: TagRenameInput, timing: LeaseTiming = RUN_LEASE): Promise<TagRenameResult> {
  const { tags, claims, runs } = collections(payload)
  const holder = newHolder()
  const run: RenameRun = { _id: new ObjectId(tagId), oldSlug: input.oldSlug, newSlug: input.newSlug, actor: input.actorId, at: input.at, holder }
  try {
    await inTransaction(payload, async ({ session }) => {
      if (!(await tags.findOne({ _id: run._id, slug: input.oldSlug }, { session, projection: { _id: 1 } }))) throw new PlanStop('not_found')
      await claims.insertOne({ _id: new ObjectId(), slug: input.newSlug, entity: 'tag', owner: tagId }, { session })
      // The run is held from the moment it is visible: its lease (server clock) is set in the same transaction.
      await runs.insertOne({ ...run, leaseUntil: new Date(0) }, { session })
      await runs.updateOne({ _id: run._id }, leaseFromNow(holder, timing.leaseMs), { session })
    })
  } catch (err) {
    if (err instanceof PlanStop) return { outcome: 'not_found' }
    const field = uniqueViolationField(err)
    if (field === '_id') return { outcome: 'busy' }
    if (field !== undefined) return { outcome: 'taken' }
    throw err
  }
  generationsOf(payload.db).changed(['taxonomy'])
  try {
    return await carryHeld(payload, run, holdRun(runs, run._id, holder, timing))
  } catch (err) {
    if (!(err instanceof RunLeaseLost)) throw err
    // No heartbeat landed for a whole lease: another process carries the rename on from here.
    throw new ApiError(503, 'service.unavailable', 'The rename was interrupted and carries on in the background; read the tag again shortly.', undefined, { 'Retry-After': '5' })
  }
}

/** Runs looked at in one pass at most: a run that keeps failing is met again next pass, never in a loop. */
const MAX_RUNS_PER_PASS = 100

/**
 * At start and every sweep: each rename whose carrier stopped (its lease expired) is claimed and
 * carried on; a run another carrier holds is left alone. Answers how many were carried on.
 */
export async function resumeTagRenamesMongo(payload: Payload, timing: LeaseTiming = RUN_LEASE): Promise<number> {
  const { runs } = collections(payload)
  let carried = 0
  for (let i = 0; i < MAX_RUNS_PER_PASS; i++) {
    const holder = newHolder()
    const before = await claimExpiredRun(runs, holder, timing)
    if (!before) break
    const run: RenameRun = { ...before, holder }
    logger().warn({ tag: run._id.toHexString(), oldSlug: run.oldSlug, newSlug: run.newSlug, previous: before.holder ?? null }, 'tags.rename_resumed')
    try {
      await carryHeld(payload, run, holdRun(runs, run._id, holder, timing))
      carried += 1
    } catch (err) {
      if (!(err instanceof RunLeaseLost)) throw err
      logger().warn({ tag: run._id.toHexString() }, 'tags.rename_lease_lost')
    }
  }
  return carried
}

let sweep: NodeJS.Timeout | undefined
let sweeping: Promise<unknown> | undefined

/** Every `sweepMs`, the renames whose carrier stopped are carried on (a failover that outlasted a batch's retries, a process gone). */
export function startTagRenameSweep(payload: Payload, timing: LeaseTiming = RUN_LEASE): void {
  if (sweep) return
  sweep = setInterval(() => {
    sweeping ??= resumeTagRenamesMongo(payload, timing)
      .catch((err: unknown) => logger().error({ err }, 'tags.rename_sweep_failed'))
      .finally(() => (sweeping = undefined))
  }, timing.sweepMs)
  sweep.unref()
}

/** Stops the sweep and waits for a pass under way (a shutdown). */
export async function stopTagRenameSweep(): Promise<void> {
  clearInterval(sweep)
  sweep = undefined
  await sweeping
}

/**
 * Slugs items may hold that are not a tag's while a rename runs: the new slug before the switch,
 * the old one after it. Answers leave them out.
 */
export async function hiddenTagSlugsMongo(payload: Payload): Promise<Set<string>> {
  const { tags, runs } = collections(payload)
  const running = await runs.find({}, { projection: { oldSlug: 1, newSlug: 1 } }).toArray()
  if (running.length === 0) return new Set()
  const slugs = running.flatMap((r) => [r.oldSlug, r.newSlug])
  const existing = new Set((await tags.find({ slug: { $in: slugs } }, { projection: { slug: 1 } }).toArray()).map((t) => t.slug))
  return new Set(slugs.filter((s) => !existing.has(s)))
}
