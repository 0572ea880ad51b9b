/**
 * The one MongoDB applier of workflow write plans (src/db/writePlan.ts): a plan's steps as
 * driver calls in one multi-document transaction (./transaction: the whole transaction re-run
 * on a transient error, only the commit on an unknown commit result). Nothing shared is
 * written beside the plan's own documents (no counter document: freshness comes from the
 * change stream, ./changeFeed); once committed, this process's generations move at once.
 */
import { type ClientSession, type Collection, type Db, type Document, type Filter, ObjectId, type UpdateFilter } from 'mongodb'
import type { Payload } from 'payload'

import { generationsOf } from '../freshness'
import { uniqueViolationFieldMongo as uniqueViolationField } from './uniqueViolation'
import {
  type Condition,
  DONE,
  type Fields,
  type PlanResult,
  PlanStop,
  Ref,
  resolveField,
  sameMembers,
  type Step,
  type Target,
  type Value,
  type Where,
  type WritePlan,
} from '../writePlan'
import { OUTBOX_COLLECTION, prepareOutbox } from './followUpOutbox'
import { collectionName, nativeDb } from './native'
import { guardKeyOfWhere, touchSiblingGuard } from './siblingGuards'
import { inTransaction } from './transaction'

/** The driver collection behind a target (Payload's name for its collections). */
export function targetCollection(payload: Payload, db: Db, target: Target): Collection<Document> {
  return db.collection(target === 'follow-ups' ? OUTBOX_COLLECTION : collectionName(payload, target))
}

const fieldName = (field: string) => (field === 'id' ? '_id' : field)

/** As Payload's MongoDB adapter stores it: ids and relationships as ObjectIds, instants as Dates. */
export function storedValue(v: Value): unknown {
  if (v instanceof Ref) return v.id === null ? null : new ObjectId(v.id)
  return v
}

const isComparison = (c: Condition): c is Exclude<Condition, Value> =>
  typeof c === 'object' && c !== null && !(c instanceof Ref) && !(c instanceof Date)

export function filterOf(where: Where): Filter<Document> {
  const and: Filter<Document>[] = []
  for (const [field, cond] of Object.entries(where)) {
    const name = fieldName(field)
    if (!isComparison(cond)) and.push({ [name]: storedValue(cond) })
    else if ('ne' in cond) and.push({ [name]: { $ne: storedValue(cond.ne) } })
    else if ('lt' in cond) {
      const lt = { [name]: { $lt: storedValue(cond.lt) } }
      and.push(cond.orNull ? { $or: [{ [name]: null }, lt] } : lt)
    } else if ('lte' in cond) and.push({ [name]: { $lte: storedValue(cond.lte) } })
    else and.push({ [name]: { $gte: storedValue(cond.gte) } })
  }
  return and.length === 1 ? and[0]! : and.length === 0 ? {} : { $and: and }
}

export function documentOf(fields: Fields, counts: readonly number[]): Document {
  const doc: Document = {}
  for (const [field, raw] of Object.entries(fields)) doc[fieldName(field)] = storedValue(resolveField(raw, counts))
  return doc
}

export function updateOf(set: Fields, inc: Record<string, number> | undefined, counts: readonly number[]): UpdateFilter<Document> {
  return { $set: documentOf(set, counts), ...(inc && Object.keys(inc).length ? { $inc: inc } : {}) }
}

const hexOf = (v: unknown): string | number | boolean | null =>
  v instanceof ObjectId ? v.toHexString() : v instanceof Date ? v.toISOString() : (v as string | number | boolean | null) ?? null

/** `session`: the plan's transaction; none for a plan of one single-document step (a retryable write). */
async function runStep(payload: Payload, db: Db, session: ClientSession | undefined, step: Step, counts: readonly number[], result: PlanResult): Promise<number> {
  const collection = targetCollection(payload, db, step.target)
  switch (step.op) {
    case 'update': {
      // A step on one document (its id, or a unique key) is an updateOne: a single-document write the driver may retry.
      const update = step.one !== undefined ? collection.updateOne.bind(collection) : collection.updateMany.bind(collection)
      const r = await update(filterOf(step.where), updateOf(step.set, step.inc, counts), { session })
      if (step.one !== undefined && r.matchedCount !== 1) throw new PlanStop(step.one)
      return r.matchedCount
    }
    case 'insert': {
      const doc = documentOf(step.values, counts)
      if (!step.unlessExists) {
        await collection.insertOne(doc, { session })
        return 1
      }
      const key: Document = {}
      for (const f of step.unlessExists) key[fieldName(f)] = doc[fieldName(f)]
      const r = await collection.updateOne(key, { $setOnInsert: doc }, { upsert: true, session })
      return r.upsertedCount
    }
    case 'delete':
      return (await collection.deleteMany(filterOf(step.where), { session })).deletedCount
    case 'replaceInArray': {
      const r = await collection.updateMany(
        { [step.field]: step.from },
        { $set: { [`${step.field}.$[old]`]: step.to, ...documentOf(step.set, counts) } },
        { session, arrayFilters: [{ old: step.from }] },
      )
      return r.matchedCount
    }
    case 'expectIds': {
      // The list's guard first: an insert into it committing meanwhile conflicts with this transaction (./siblingGuards).
      await touchSiblingGuard(db, guardKeyOfWhere(step.target, step.where), session)
      const docs = await collection.find(filterOf(step.where), { session, projection: { _id: 1 } }).toArray()
      const actual = docs.map((d) => String(hexOf(d._id)))
      if (!sameMembers(actual, step.ids)) throw new PlanStop(step.otherwise, actual)
      return actual.length
    }
    case 'claimOne': {
      const projection: Document = {}
      for (const f of step.read) projection[fieldName(f)] = 1
      const doc = await collection.findOneAndUpdate(filterOf(step.where), updateOf(step.set, step.inc, counts), {
        session,
        sort: { [fieldName(step.oldest)]: 1 },
        returnDocument: 'after',
        projection,
      })
      result.claimed = doc ? Object.fromEntries(step.read.map((f) => [f, hexOf(doc[fieldName(f)])])) : null
      return doc ? 1 : 0
    }
  }
}

/**
 * A plan of one step on one document (a job claim, its done or failed, a refresh-token claim) is
 * atomic by itself: it is sent as a plain retryable write, not a transaction (the driver re-sends
 * it once after a network error or a failover, under the same transaction number, so the server
 * applies it once).
 */
function singleDocumentStep(plan: WritePlan): Step | undefined {
  const [step, ...rest] = plan.steps
  if (!step || rest.length > 0) return undefined
  return step.op === 'claimOne' || (step.op === 'update' && step.one !== undefined) ? step : undefined
}

async function applySingle(payload: Payload, plan: WritePlan, step: Step): Promise<PlanResult> {
  const result: PlanResult = { outcome: DONE, counts: [] }
  try {
    result.counts.push(await runStep(payload, nativeDb(payload), undefined, step, [], result))
    plan.afterStep?.(0)
  } catch (err) {
    if (err instanceof PlanStop) return { outcome: err.outcome, counts: [] }
    throw err
  }
  return result
}

export async function applyPlanMongo(payload: Payload, plan: WritePlan): Promise<PlanResult> {
  // The outbox's collection and unique index exist before a transaction writes to it.
  if (plan.steps.some((s) => s.target === 'follow-ups')) await prepareOutbox(payload)
  const single = singleDocumentStep(plan)
  let result: PlanResult
  try {
    result = single ? await applySingle(payload, plan, single) : await inTransaction(payload, async ({ session, db }) => {
      const attempt: PlanResult = { outcome: DONE, counts: [] }
      for (const [index, step] of plan.steps.entries()) {
        attempt.counts.push(await runStep(payload, db, session, step, attempt.counts, attempt))
        plan.afterStep?.(index)
      }
      return attempt
    })
  } catch (err) {
    if (err instanceof PlanStop) return { outcome: err.outcome, counts: [], ...(err.actual ? { actual: err.actual } : {}) }
    if (plan.onUnique !== undefined && uniqueViolationField(err) !== undefined) return { outcome: plan.onUnique, counts: [] }
    throw err
  }
  // This process reads its own write at once; other processes by their change stream.
  generationsOf(payload.db).changed(plan.domains, plan.rows)
  return result
}
