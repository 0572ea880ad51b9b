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
 * Every step is idempotent; a process that stops half-way leaves the run, and the next start
 * carries it on from where the tag's slug says it is (resumeTagRenamesMongo).
 */
import { type Collection, type Document, ObjectId } from 'mongodb'
import type { Payload } from 'payload'

import { generationsOf } from '../generations'
import type { TagRenameInput, TagRenameResult } from '../renameTypes'
import { tagRenameRecordSteps } from '../workflow/tagRenamePlan'
import { DONE, PlanStop, ref, type WritePlan } from '../writePlan'
import { logger } from '../../platform/logging'
import type { ContentDoc, TagDoc } from './documents'
import { nativeDb, payloadCollection } from './native'
import { applyPlanMongo } from './planApplier'
import { inTransaction } from './transaction'
import { uniqueViolationFieldMongo as uniqueViolationField } from './uniqueViolation'

export const TAG_RENAME_RUNS = 'raw_tag_rename_runs'

/** Holders moved per write: small enough for one short write, large enough to end soon. */
export const RENAME_BATCH = 1_000

type RenameRun = { _id: ObjectId; oldSlug: string; newSlug: string; actor: string | null; at: Date }
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

/** Runs `write` on up to RENAME_BATCH holders matching `filter` at a time, until none is left; answers how many it wrote. */
async function inBatches(payload: Payload, content: Collection<ContentDoc>, filter: Document, update: Document | Document[]): Promise<number> {
  let written = 0
  for (;;) {
    const ids = (await content.find(filter, { projection: { _id: 1 }, limit: RENAME_BATCH }).toArray()).map((d) => d._id)
    if (ids.length === 0) return written
    const r = await content.updateMany({ _id: { $in: ids }, ...filter }, update)
    written += r.modifiedCount
    // This process reads its own writes at once (other processes by their change streams).
    generationsOf(payload.db).changed(['content'], ids.map((id) => id.toHexString()))
  }
}

/** Step 2: the new slug beside the old one in every holder. */
async function addNewSlug(payload: Payload, run: RenameRun): Promise<void> {
  const { content } = collections(payload)
  const update = [...withBeside(run.oldSlug, run.newSlug), { $set: { updatedAt: run.at } }]
  await inBatches(payload, content, { tagSlugs: { $eq: run.oldSlug, $ne: run.newSlug } }, update)
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
async function dropOldSlug(payload: Payload, run: RenameRun): Promise<void> {
  const { content, claims, runs } = collections(payload)
  await inBatches(payload, content, { tagSlugs: { $all: [run.oldSlug, run.newSlug] } }, { $pull: { tagSlugs: run.oldSlug }, $set: { updatedAt: run.at } })
  // A holder that took the old slug after step 2 (an edit racing the rename) keeps the tag under its new slug.
  const replace = { $set: { 'tagSlugs.$[old]': run.newSlug, updatedAt: run.at } }
  const stragglers = await content.updateMany({ tagSlugs: run.oldSlug }, replace, { arrayFilters: [{ old: run.oldSlug }] })
  if (stragglers.modifiedCount > 0) generationsOf(payload.db).changed(['content'])
  await claims.deleteOne({ slug: run.oldSlug, entity: 'tag', owner: run._id.toHexString() })
  await runs.deleteOne({ _id: run._id })
  generationsOf(payload.db).changed(['taxonomy'])
}

/** A run whose tag is gone (deleted meanwhile): the new slug leaves the holders it was added to, its claim is released. */
async function abandon(payload: Payload, run: RenameRun): Promise<void> {
  const { content, claims, runs } = collections(payload)
  await inBatches(payload, content, { tagSlugs: { $all: [run.oldSlug, run.newSlug] } }, { $pull: { tagSlugs: run.newSlug } })
  await claims.deleteOne({ slug: run.newSlug, entity: 'tag', owner: run._id.toHexString() })
  await runs.deleteOne({ _id: run._id })
  generationsOf(payload.db).changed(['taxonomy'])
}

/** Carries a recorded run on from where its tag's slug says it is. */
async function carryOn(payload: Payload, run: RenameRun): Promise<TagRenameResult> {
  const tag = await collections(payload).tags.findOne({ _id: run._id }, { projection: { slug: 1 } })
  if (tag?.slug === run.oldSlug) {
    await addNewSlug(payload, run)
    const switched = await switchSlug(payload, run)
    if (switched.outcome !== 'renamed') {
      await abandon(payload, run)
      return switched
    }
    await dropOldSlug(payload, run)
    return switched
  }
  if (tag?.slug === run.newSlug) {
    await dropOldSlug(payload, run)
    return { outcome: 'renamed', contentCount: await collections(payload).content.countDocuments({ tagSlugs: run.newSlug }) }
  }
  await abandon(payload, run)
  return { outcome: 'not_found' }
}

/** POST /tags/<slug>/rename on MongoDB: recorded (step 1), then carried through. */
export async function renameTagMongo(payload: Payload, tagId: string, input: TagRenameInput): Promise<TagRenameResult> {
  const { tags, claims, runs } = collections(payload)
  const run: RenameRun = { _id: new ObjectId(tagId), oldSlug: input.oldSlug, newSlug: input.newSlug, actor: input.actorId, at: input.at }
  try {
    await inTransaction(payload, async ({ session }) => {
      if (!(await tags.findOne({ _id: run._id, slug: input.oldSlug }, { session, projection: { _id: 1 } }))) throw new PlanStop('not_found')
      await claims.insertOne({ _id: new ObjectId(), slug: input.newSlug, entity: 'tag', owner: tagId }, { session })
      await runs.insertOne(run, { session })
    })
  } catch (err) {
    if (err instanceof PlanStop) return { outcome: 'not_found' }
    const field = uniqueViolationField(err)
    if (field === '_id') return { outcome: 'busy' }
    if (field !== undefined) return { outcome: 'taken' }
    throw err
  }
  generationsOf(payload.db).changed(['taxonomy'])
  return carryOn(payload, run)
}

/** At start: every rename a stopped process left half-way is carried on (idempotent; another process may be doing the same). */
export async function resumeTagRenamesMongo(payload: Payload): Promise<number> {
  const left = await collections(payload).runs.find({}).toArray()
  for (const run of left) {
    logger().warn({ tag: run._id.toHexString(), oldSlug: run.oldSlug, newSlug: run.newSlug }, 'tags.rename_resumed')
    await carryOn(payload, run)
  }
  return left.length
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
