/**
 * Every MongoDB store and engine function, run without a server: Payload is initialised
 * on the mongoose adapter (its models exist) but never connected. Each function must get
 * as far as its first driver call and fail there with the driver's "not connected" error:
 * a shape error (a missing adapter member, a wrong method) fails with a TypeError instead.
 */
import { MongoClient, MongoNotConnectedError } from 'mongodb'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ContentRecord } from '../../src/db/contentTypes'

const URI = 'mongodb://127.0.0.1:9/curation_serverless?replicaSet=rs0&serverSelectionTimeoutMS=200'
process.env.DATABASE_URI = URI

let payload: Payload
let engine: typeof import('../../src/db/engine')
let workflow: typeof import('../../src/db/workflow')
let payloadWrite: typeof import('../../src/db/payloadWrite').payloadWrite
let closed: MongoClient

const ID = '65a1b2c3d4e5f60718293a4b'
// Only the driver's failure is asserted: the record's fields beyond these are irrelevant (null).
const record = {
  id: ID, slug: 's', title: 't', description: null, url: 'https://x.test', tagSlugs: ['ai'], groupId: null,
  channelId: ID, platformId: null, status: 'approved' as const, isActive: true, submittedBy: null,
  approvedAt: '2024-01-01T00:00:00.000Z', rejectionReason: null, thumbnailUrl: null,
  createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z',
}
const baseQuery = { statuses: ['approved' as const], includeInactive: false, sort: 'newest' as const, offset: 0, limit: 20, estimate: false }

/** Rejects with the driver's not-connected error, never a TypeError. */
async function failsAtTheDriver(call: () => Promise<unknown>) {
  const err = await call().then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  )
  expect(err).not.toBeInstanceOf(TypeError)
  expect(err).toBeInstanceOf(MongoNotConnectedError)
  expect(String((err as Error).message)).toMatch(/Client must be connected/)
}

beforeAll(async () => {
  const { getPayload } = await import('payload')
  const config = await (await import('../../payload.config')).default
  payload = await getPayload({ config, disableDBConnect: true, disableOnInit: true })
  engine = await import('../../src/db/engine')
  workflow = await import('../../src/db/workflow')
  payloadWrite = (await import('../../src/db/payloadWrite')).payloadWrite
})

afterAll(async () => {
  await closed?.close()
})

describe('before any connection exists', () => {
  it('runs on the mongodb engine, with Payload models for every collection the store uses', () => {
    expect(engine.engine().name).toBe('mongodb')
    for (const slug of ['content', 'tags', 'tag-renames', 'refresh-tokens', 'surfaces', 'groups', 'channels', 'platforms', 'facets']) {
      // Mongoose pluralizes (content -> contents): the store takes names from the models.
      expect(payload.db.collections[slug]?.collection.collectionName).toMatch(/^[a-z-]+$/)
    }
    expect(payload.db.connection.db).toBeUndefined()
  })

  it('the native accessor reports "not connected" (no TypeError)', async () => {
    await failsAtTheDriver(() => engine.engine().contentStore(payload).contentBySlug('x'))
    expect(await engine.engine().ping(payload)).toBe(false)
  })
})

describe('every store function reaches its first driver call', () => {
  beforeAll(async () => {
    // A driver client that was closed before it ever connected: every operation on it throws
    // MongoNotConnectedError at once, so each call is run up to the driver and no further.
    closed = new MongoClient(URI)
    await closed.close()
    Object.defineProperty(payload.db.connection, 'db', { value: closed.db('curation_serverless'), configurable: true })
    Object.defineProperty(payload.db.connection, 'client', { value: closed, configurable: true })
  })

  const store = () => engine.engine().contentStore(payload)

  // The URL-key backfill is a migration now; a start only looks for tag renames left half-way.
  it('prepare: reaches the driver (tag renames to resume) and fails there', () => failsAtTheDriver(() => store().prepare()))
  it('the URL-key backfill (a migration) reaches the driver and fails there', async () => {
    const { backfillUrlKeys } = await import('../../src/db/mongo/urlKeys')
    const { payloadCollection } = await import('../../src/db/mongo/native')
    await failsAtTheDriver(() => backfillUrlKeys(payloadCollection(payload, 'content')))
  })
  it('the first service index build fails, named, caused by the driver error', async () => {
    const { ensureServiceIndexes } = await import('../../src/db/mongo/indexes')
    const { nativeDb } = await import('../../src/db/mongo/native')
    const err = await ensureServiceIndexes(payload, nativeDb(payload)).then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
    expect((err as Error).name).toBe('IndexBuildFailed')
    expect((err as Error).message).toMatch(/^Could not build the MongoDB index contents\.raw_content_text: Client must be connected/)
    expect((err as Error).cause).toBeInstanceOf(MongoNotConnectedError)
  })
  it('listContent: default list', () => failsAtTheDriver(() => store().listContent(baseQuery)))
  it('listContent: text index, relevance', () =>
    failsAtTheDriver(() => store().listContent({ ...baseQuery, sort: 'relevance', text: { terms: ['rust'], shortTerms: [] } })))
  it('listContent: stop words only', () =>
    failsAtTheDriver(() => store().listContent({ ...baseQuery, text: { terms: ['the'], shortTerms: [] } })))
  it('listContent: short terms (hinted)', () =>
    failsAtTheDriver(() => store().listContent({ ...baseQuery, text: { terms: [], shortTerms: ['ai'] } })))
  it('listContent: group, channel, platform, tags, period filters', () =>
    failsAtTheDriver(() =>
      store().listContent({
        ...baseQuery, groupIds: [ID], channelIds: [ID], platformIds: [ID], tags: ['ai'], approvedSince: '2024-01-01T00:00:00.000Z',
      }),
    ))
  it('listContent: count only, estimate', () => failsAtTheDriver(() => store().listContent({ ...baseQuery, limit: 0, estimate: true })))
  it('contentBySlug', () => failsAtTheDriver(() => store().contentBySlug('s')))
  it('contentById', () => failsAtTheDriver(() => store().contentById(ID)))
  it('relatedContent', () => failsAtTheDriver(() => store().relatedContent(record as ContentRecord, 10)))
  it('countContent', () => failsAtTheDriver(() => store().countContent()))
  it('listTags: facet-filtered, prefixed', () =>
    failsAtTheDriver(() => store().listTags({ facetIds: [ID], prefix: 'a', offset: 0, limit: 10 })))
  it('tagBySlug', () => failsAtTheDriver(() => store().tagBySlug('ai')))
  it('tagUsage', () => failsAtTheDriver(() => store().tagUsage(['ai'])))
    it('insertContent (seed)', () =>
    failsAtTheDriver(() => store().insertContent([{ ...record, id: undefined, submittedBy: ID, groupId: ID }])))
  it('insertTags (seed)', () =>
    failsAtTheDriver(() =>
      store().insertTags([{ slug: 'ai', label: 'AI', facetId: ID, createdAt: record.createdAt, updatedAt: record.updatedAt }]),
    ))

  it('engine: prepare (replica-set check first)', () => failsAtTheDriver(() => engine.engine().prepare(payload)))
  it('workflow: claimRefreshToken', () => failsAtTheDriver(() => workflow.claimRefreshToken(payload, 'hash', 'rotated', new Date())))
  it('engine: hitRateLimit', () => failsAtTheDriver(() => engine.engine().hitRateLimit(payload, 'k', 5, 60)))
  it('workflow: renameTag', () =>
    failsAtTheDriver(() => workflow.renameTag(payload, { oldSlug: 'a', newSlug: 'b', actorId: ID, at: new Date() })))
  it('workflow: transitionStatus', () =>
    failsAtTheDriver(() =>
      workflow.transitionStatus(payload, { id: ID, from: 'pending', to: 'approved', at: new Date(), approvedAt: new Date(), rejectionReason: null, followUps: ['thumbnail'], event: { actorId: ID, action: 'approve', targetSlug: 's', stateBefore: 'pending', stateAfter: 'approved', reason: null, at: new Date() } }),
    ))
  it('workflow: recordedUpdate', () =>
    failsAtTheDriver(() =>
      workflow.recordedUpdate(payload, { collection: 'content', id: ID, expect: { isActive: true }, set: { isActive: false }, domain: 'content', event: { actorId: ID, action: 'delete', targetSlug: 's', stateBefore: 'active', stateAfter: 'deleted', reason: null, at: new Date() } }),
    ))
  it('workflow: reorderTaxonomy', () =>
    failsAtTheDriver(() => workflow.reorderTaxonomy(payload, { collection: 'groups', parent: { field: 'surface', id: ID }, orderedIds: [ID], at: new Date() })))
  it('workflow: claimFollowUp', () =>
    failsAtTheDriver(() => workflow.claimFollowUp(payload, { worker: 'w', now: new Date(), leaseMs: 1000 })))
  it('workflow: completeFollowUp', () => failsAtTheDriver(() => workflow.completeFollowUp(payload, ID, 'w', new Date())))
  it('workflow: failFollowUp', () =>
    failsAtTheDriver(() => workflow.failFollowUp(payload, { id: ID, worker: 'w', error: 'x', retryAt: null, at: new Date() })))
  it('engine: listFollowUps', () => failsAtTheDriver(() => engine.engine().listFollowUps(payload, ID)))
  it('engine: followUpDepth', () => failsAtTheDriver(() => engine.engine().followUpDepth(payload, new Date())))
  it('engine: ping answers false', async () => expect(await engine.engine().ping(payload)).toBe(false))
  it('payloadWrite passes a non-transient failure through at once', () =>
    failsAtTheDriver(() => payloadWrite(() => engine.engine().contentStore(payload).countContent())))
  it('a change feed without a connection stays blind (a generation holds 50 ms at most), never throws', async () => {
    const { generationsOf, BLIND_REUSE_MS } = await import('../../src/db/freshness')
    const a = engine.generation(payload, 'content')
    expect(generationsOf(payload.db).isBlind).toBe(true)
    expect(a).toMatch(/^blind-/)
    await new Promise((resolve) => setTimeout(resolve, BLIND_REUSE_MS + 5))
    expect(engine.generation(payload, 'content')).not.toBe(a)
  })
})
