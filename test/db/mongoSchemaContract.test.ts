/**
 * The schema contract: every field the raw MongoDB code names (filters, sorts, projections,
 * updates, pipelines, the refresh-token claim) exists in Payload's own MongoDB schema for that
 * collection (the mongoose schema Payload builds from collections/), and every value it
 * writes or compares has the type Payload stores there: an id is an ObjectId where Payload
 * keeps a relationship, a Date where Payload keeps a date. A renamed field, a relationship
 * compared as a string (matches nothing) or a date stored as a string (sorts wrongly) fails
 * here, without a server. Payload is initialised on the mongoose adapter, never connected.
 */
import { ObjectId, type Document } from 'mongodb'
import type { Payload } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import * as q from '../../src/db/mongo/contentQueries'
import { documentOf, filterOf, updateOf } from '../../src/db/mongo/planApplier'
import { ref as plansRef, type Step, type WritePlan } from '../../src/db/writePlan'

process.env.DATABASE_URI = 'mongodb://127.0.0.1:9/contract?replicaSet=rs0&serverSelectionTimeoutMS=200'

let payload: Payload
// Imported after DATABASE_URI is set: the engine is chosen when src/db/engine loads.
let plans: typeof import('../../src/db/workflow')

beforeAll(async () => {
  plans = await import('../../src/db/workflow')
  const { getPayload } = await import('payload')
  const config = await (await import('../../payload.config')).default
  payload = await getPayload({ config, disableDBConnect: true, disableOnInit: true })
})

type Use = { path: string; value?: unknown }

const OPERATORS_ON_PATHS = new Set(['$set', '$setOnInsert', '$unset', '$inc', '$min', '$max', '$push', '$addToSet', '$pull'])
const LOGICAL = new Set(['$and', '$or', '$nor'])

/** Every field path a filter / update / sort / projection names, with the values compared or written. */
function usesOf(doc: Document, into: Use[] = []): Use[] {
  for (const [key, value] of Object.entries(doc)) {
    if (LOGICAL.has(key)) for (const sub of value as Document[]) usesOf(sub, into)
    else if (OPERATORS_ON_PATHS.has(key)) usesOf(value as Document, into)
    else if (key === '$text') continue // the text index: its fields are pinned by the index plan
    else if (key.startsWith('$')) continue
    else for (const v of valuesOf(value)) into.push({ path: key, value: v })
  }
  return into
}

/** The paths of a sort or projection (values are directions and flags; `{ $meta }` is computed, not stored). */
const pathsOf = (doc: Document): Use[] =>
  Object.entries(doc)
    .filter(([, v]) => !(v && typeof v === 'object' && '$meta' in v))
    .map(([path]) => ({ path }))

/** The values a path is compared with or set to (inside $in, $ne, $gte, ...); none for 1/-1 and $meta. */
function valuesOf(value: unknown): unknown[] {
  if (value === null || value instanceof ObjectId || value instanceof Date || typeof value !== 'object') return [value]
  if (Array.isArray(value)) return value.flatMap(valuesOf)
  const entries = Object.entries(value as Document)
  if (entries.every(([k]) => k.startsWith('$'))) {
    return entries.flatMap(([k, v]) => (k === '$regex' || k === '$options' || k === '$meta' ? [] : valuesOf(v)))
  }
  return [value]
}

/** Field references (`'$tagSlugs'`) and stage documents of an aggregation pipeline. */
function pipelineUses(pipeline: Document[]): Use[] {
  const into: Use[] = []
  const refs = (v: unknown): void => {
    if (typeof v === 'string' && /^\$[a-zA-Z]/.test(v)) into.push({ path: v.slice(1) })
    else if (Array.isArray(v)) v.forEach(refs)
    else if (v && typeof v === 'object' && !(v instanceof ObjectId) && !(v instanceof Date)) Object.values(v).forEach(refs)
  }
  const added = new Set<string>()
  for (const stage of pipeline) {
    const [name, body] = Object.entries(stage)[0]!
    if (name === '$match') usesOf(body as Document, into)
    else if (name === '$addFields') {
      for (const [k, v] of Object.entries(body as Document)) {
        added.add(k)
        refs(v)
      }
    } else if (name === '$sort' || name === '$project') {
      for (const k of Object.keys(body as Document)) if (!added.has(k)) into.push({ path: k })
    } else refs(body)
  }
  return into.filter((u) => !added.has(u.path) && u.path !== '_id')
}

/** mongoose's type name for a value as Payload stores it. */
function instanceOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined
  if (value instanceof ObjectId) return 'ObjectId'
  if (value instanceof Date) return 'Date'
  if (typeof value === 'string') return 'String'
  if (typeof value === 'number') return 'Number'
  if (typeof value === 'boolean') return 'Boolean'
  return undefined
}

function checkAgainstSchema(slug: string, uses: Use[]) {
  const schema = payload.db.collections[slug]!.schema
  const problems: string[] = []
  for (const { path, value } of uses) {
    const top = path.split('.')[0]!
    const field = schema.path(top)
    if (!field) {
      problems.push(`${slug}.${top}: not in Payload's schema`)
      continue
    }
    const stored = instanceOf(value)
    if (stored === undefined || top === '_id') continue
    // tagSlugs is a JSON field (Mixed): an array of strings, compared element-wise.
    const expected = field.instance === 'Mixed' ? stored : field.instance === 'Array' ? 'String' : field.instance
    if (stored !== expected) problems.push(`${slug}.${path}: written/compared as ${stored}, Payload stores ${field.instance}`)
  }
  return problems
}

const A = '65a1b2c3d4e5f60718293a4b'
const base = { statuses: ['approved' as const], includeInactive: false, sort: 'newest' as const, offset: 0, limit: 20, estimate: false }
const everyFilter = {
  ...base,
  approvedSince: '2024-01-01T00:00:00.000Z', submittedBy: A, createdBefore: '2024-02-01T00:00:00.000Z',
  groupIds: [A], channelIds: [A], platformIds: [A], tags: ['ai'], urlKey: 'example.com/a',
  text: { terms: ['the'], shortTerms: ['ai'] },
}

describe("the raw code's fields are Payload's fields, with Payload's types", () => {
  it('content: every list filter, sort, projection, the submissions and URL-key paths, the backfill, the move', () => {
    const uses: Use[] = [
      ...usesOf(q.contentFilter(everyFilter)),
      ...usesOf(q.contentFilter({ ...base, text: { terms: ['rust'], shortTerms: [] } })),
      ...usesOf(q.submissionsFilter({ submitterId: A, includeInactive: false })),
      ...(['newest', 'oldest', 'alpha', 'submittedNewest', 'submittedOldest', 'relevance'] as const).flatMap((sort) =>
        pathsOf(q.contentSort({ sort, text: { terms: ['rust'], shortTerms: [] } }) as Document),
      ),
      ...pathsOf(q.contentProjection({})),
      ...pathsOf(q.SUBMISSIONS_SORT as Document),
      ...usesOf(q.urlKeyFilter('example.com/a')),
      ...pathsOf(q.URL_KEY_SORT as Document),
      ...usesOf(q.MISSING_URL_KEY),
      ...usesOf(q.missingUrlKeyAfter(new ObjectId(A))),
      ...pathsOf(q.BACKFILL_SORT as Document),
      ...usesOf(q.setUrlKey(new ObjectId(A), 'example.com/a', 0).filter),
      ...usesOf(q.setUrlKey(new ObjectId(A), 'example.com/a', 0).update),
      ...pipelineUses(q.relatedPipeline({ id: A, channelId: A, tagSlugs: ['ai'] }, 5)),
      ...usesOf(q.tagUsageFilter('ai')),
    ]
    expect(uses.length).toBeGreaterThan(30)
    expect(checkAgainstSchema('content', uses)).toEqual([])
  })

  it('tags: the list filter and sort', () => {
    const uses = [...usesOf(q.tagFilter({ facetIds: [A], prefix: 'a' })), ...pathsOf(q.TAG_SORT as Document)]
    expect(checkAgainstSchema('tags', uses)).toEqual([])
  })

  it('the contract itself catches a renamed field, an id compared as a string and a date written as a string', () => {
    expect(checkAgainstSchema('content', [{ path: 'channelId', value: new ObjectId(A) }])).toEqual(["content.channelId: not in Payload's schema"])
    expect(checkAgainstSchema('content', [{ path: 'group', value: A }])).toEqual(['content.group: written/compared as String, Payload stores ObjectId'])
    expect(checkAgainstSchema('content', [{ path: 'approvedAt', value: '2024-01-01' }])).toEqual([
      'content.approvedAt: written/compared as String, Payload stores Date',
    ])
  })
})

const at = new Date()
const event = { actorId: A, action: 'approve' as const, targetSlug: 's', stateBefore: 'pending', stateAfter: 'approved', reason: null, at }

/** Every workflow plan, with every option that adds a step or a field. */
function everyPlan(): WritePlan[] {
  const move = { id: A, from: 'pending' as const, at, event, followUps: ['thumbnail' as const, 'notify.approved' as const] }
  return [
    plans.statusMovePlan({ ...move, to: 'approved', approvedAt: at, rejectionReason: null }),
    plans.statusMovePlan({ ...move, to: 'rejected', approvedAt: null, rejectionReason: 'why', followUps: ['notify.rejected'] }),
    plans.recordedUpdatePlan({ collection: 'content', id: A, expect: { isActive: true, status: 'approved' }, set: { isActive: false }, domain: 'content', event, cancelFollowUps: true }),
    ...(['surfaces', 'groups', 'channels', 'platforms'] as const).map((collection) =>
      plans.recordedUpdatePlan({ collection, id: A, expect: { slug: 'a' }, set: { slug: 'b' }, domain: 'taxonomy', event }),
    ),
    plans.recordedUpdatePlan({ collection: 'facets', id: A, expect: { key: 'a' }, set: { key: 'b' }, domain: 'taxonomy', event }),
    plans.tagRenamePlan(A, { oldSlug: 'a', newSlug: 'b', actorId: A, at }),
    plans.reorderPlan({ collection: 'surfaces', orderedIds: [A], at }),
    plans.reorderPlan({ collection: 'groups', parent: { field: 'surface', id: A }, orderedIds: [A], at }),
    plans.reorderPlan({ collection: 'channels', parent: { field: 'group', id: A }, orderedIds: [A], at }),
    plans.refreshClaimPlan('hash', 'rotated', at),
    plans.refreshClaimPlan('hash', 'rotated', at, { sealed: 'sealed', until: at }),
    plans.claimFollowUpPlan({ worker: 'w', now: at, leaseMs: 1000 }),
    plans.completeFollowUpPlan(A, 'w', at),
    plans.failFollowUpPlan({ id: A, worker: 'w', error: 'x', retryAt: at, at }),
    plans.failFollowUpPlan({ id: A, worker: 'w', error: 'x', retryAt: null, at }),
  ]
}

/** What a step sends as the MongoDB applier builds it: its filter, update or document. */
function stepUses(step: Step): Use[] {
  const counts = [1, 1, 1, 1]
  switch (step.op) {
    case 'update':
      return [...usesOf(filterOf(step.where)), ...usesOf(updateOf(step.set, step.inc, counts))]
    case 'insert':
      return usesOf(documentOf(step.values, counts))
    case 'delete':
    case 'expectIds':
      return usesOf(filterOf(step.where))
    case 'replaceInArray':
      return [{ path: step.field, value: step.from }, { path: step.field, value: step.to }, ...usesOf(documentOf(step.set, counts))]
    case 'claimOne':
      return [...usesOf(filterOf(step.where)), ...usesOf(updateOf(step.set, step.inc, counts)), { path: step.oldest }, ...step.read.map((path) => ({ path: path === 'id' ? '_id' : path }))]
  }
}

describe('every workflow plan writes and compares Payload fields with Payload types', () => {
  it('each step on a Payload collection (the outbox is the service\'s own collection, pinned on the wire)', () => {
    const problems: string[] = []
    let checked = 0
    for (const plan of everyPlan()) {
      for (const step of plan.steps) {
        if (step.target === 'follow-ups') continue
        const uses = stepUses(step)
        checked += uses.length
        problems.push(...checkAgainstSchema(step.target, uses).map((p) => `${plan.name}: ${p}`))
      }
    }
    expect(checked).toBeGreaterThan(100)
    expect(problems).toEqual([])
  })

  it('a plan naming a field Payload does not have fails the contract', () => {
    const renamed = stepUses({ op: 'update', target: 'content', where: { id: plansRef(A) }, set: { approvedOn: at } })
    expect(checkAgainstSchema('content', renamed)).toEqual(["content.approvedOn: not in Payload's schema"])
  })
})
