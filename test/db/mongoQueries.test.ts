/** The exact filter, sort, pipeline and update documents the MongoDB store sends (pure builders, no server). */
import { MongoError, MongoServerError, ObjectId } from 'mongodb'
import { describe, expect, it } from 'vitest'

import {
  CONTENT_PROJECTION,
  contentFilter,
  contentHint,
  contentProjection,
  contentSort,
  relatedPipeline,
  BACKFILL_SORT,
  MISSING_URL_KEY,
  missingUrlKeyAfter,
  setUrlKey,
  SUBMISSIONS_SORT,
  submissionsFilter,
  URL_KEY_SORT,
  urlKeyFilter,
  TAG_SORT,
  tagFilter,
  tagUsageFilter,
  carryRelated,
  textMode,
} from '../../src/db/mongo/contentQueries'
import { serviceIndexes } from '../../src/db/mongo/indexes'
import type { ContentRecord } from '../../src/db/contentTypes'
import { listShapes } from '../support/listShapes'
import { filterOf, updateOf } from '../../src/db/mongo/planApplier'
import { isTransient } from '../../src/db/mongo/retry'
import { uniqueViolationFieldMongo as uniqueViolationField } from '../../src/db/mongo/uniqueViolation'
import { backoffMs, retryTransient, RETRY_BUDGET_MS } from '../../src/db/transientRetry'
import { refreshClaimPlan, statusMovePlan } from '../../src/db/workflow'

const withTransientRetry = <T>(fn: () => Promise<T>) => retryTransient(fn, isTransient)
const isDuplicateSlug = (err: unknown) => uniqueViolationField(err) === 'slug'

const A = '65a1b2c3d4e5f60718293a4b'
const B = '65a1b2c3d4e5f60718293a4c'
const q = { statuses: ['approved' as const], includeInactive: false, sort: 'newest' as const, offset: 0, limit: 20, estimate: false }

describe('content list filter', () => {
  it('public default: approved and active only', () => {
    expect(contentFilter(q)).toEqual({ status: { $in: ['approved'] }, isActive: true })
  })
  it('moderator view: every status, inactive included, each named (the list indexes lead with both)', () => {
    expect(contentFilter({ ...q, statuses: 'all', includeInactive: true })).toEqual({
      status: { $in: ['pending', 'approved', 'rejected'] },
      isActive: { $in: [true, false] },
    })
  })
  it('text terms go to the text index; short terms are title substrings, ASCII letters in either case (escaped)', () => {
    expect(contentFilter({ ...q, text: { terms: ['rust', 'async'], shortTerms: ['c+', 'ai'] } })).toEqual({
      $text: { $search: 'rust async' },
      $and: [{ title: { $regex: '[cC]\\+' } }, { title: { $regex: '[aA][iI]' } }],
      status: { $in: ['approved'] },
      isActive: true,
    })
  })
  it('stop words (the shared list, src/db/searchTerms) never reach the text index; only stop words match nothing', () => {
    expect(textMode({ text: { terms: ['the'], shortTerms: [] } })).toBe('nothing')
    expect(textMode({ text: { terms: ['the', 'rust'], shortTerms: [] } })).toBe('index')
    expect(contentFilter({ ...q, text: { terms: ['the', 'rust'], shortTerms: [] } })).toEqual({
      $text: { $search: 'rust' },
      status: { $in: ['approved'] },
      isActive: true,
    })
    expect(contentFilter({ ...q, text: { terms: ['the', 'about'], shortTerms: [] } })).toEqual({
      _id: { $in: [] },
      status: { $in: ['approved'] },
      isActive: true,
    })
  })
  it('taxonomy ids become ObjectIds (malformed ids dropped), tags and period as given', () => {
    const f = contentFilter({
      ...q, groupIds: [A, 'nope'], channelIds: [B], platformIds: [A], tags: ['ai', 'ml'], approvedSince: '2024-05-01T00:00:00.000Z',
    })
    expect(f).toEqual({
      status: { $in: ['approved'] },
      isActive: true,
      approvedAt: { $gte: new Date('2024-05-01T00:00:00.000Z') },
      group: { $in: [new ObjectId(A)] },
      channel: { $in: [new ObjectId(B)] },
      platform: { $in: [new ObjectId(A)] },
      tagSlugs: { $in: ['ai', 'ml'] },
    })
  })
})

describe('my submissions and duplicate URLs', () => {
  it('one submitter\'s items, newest first by createdAt then _id; inactive only when asked', () => {
    expect(submissionsFilter({ submitterId: A, includeInactive: false })).toEqual({ submittedBy: new ObjectId(A), isActive: true })
    expect(submissionsFilter({ submitterId: A, includeInactive: true })).toEqual({ submittedBy: new ObjectId(A) })
    // A malformed id is nobody: it matches nothing (not the items without a submitter).
    expect(submissionsFilter({ submitterId: 'nope', includeInactive: true })).toEqual({ submittedBy: { $in: [] } })
    expect(SUBMISSIONS_SORT).toEqual({ createdAt: -1, _id: -1 })
  })
  it('?url= is an equality on urlKey, ANDed with the other filters', () => {
    expect(contentFilter({ ...q, urlKey: 'https://example.com/a' })).toEqual({
      status: { $in: ['approved'] },
      isActive: true,
      urlKey: 'https://example.com/a',
    })
    expect(urlKeyFilter('https://example.com/a')).toEqual({ urlKey: 'https://example.com/a' })
    expect(URL_KEY_SORT).toEqual({ urlKeyOrdinal: 1, createdAt: 1, _id: 1 })
  })
  it('backfill: rows without a key, oldest first; a key is set only where none is', () => {
    expect(MISSING_URL_KEY).toEqual({ urlKey: null })
    expect(BACKFILL_SORT).toEqual({ _id: 1 })
    // Each batch after the last one's id: one walk of the _id index in all, not a scan per batch.
    expect(missingUrlKeyAfter(undefined)).toEqual({ urlKey: null })
    expect(missingUrlKeyAfter(new ObjectId(A))).toEqual({ urlKey: null, _id: { $gt: new ObjectId(A) } })
    expect(setUrlKey(new ObjectId(A), 'https://example.com/a', 1)).toEqual({
      filter: { _id: new ObjectId(A), urlKey: null },
      update: { $set: { urlKey: 'https://example.com/a', urlKeyOrdinal: 1 } },
    })
  })
  it('indexes: the submitter list and the unique (urlKey, urlKeyOrdinal) over keyed rows', () => {
    const byName = new Map(serviceIndexes('content').map((p) => [p.index.name, p.index]))
    expect(byName.get('raw_content_by_submitter')).toEqual({ key: { submittedBy: 1, createdAt: -1, _id: -1 }, name: 'raw_content_by_submitter' })
    expect(byName.get('raw_content_url_key')).toEqual({
      key: { urlKey: 1, urlKeyOrdinal: 1 },
      name: 'raw_content_url_key',
      unique: true,
      partialFilterExpression: { urlKey: { $type: 'string' } },
    })
  })
})

describe('content sort, projection and hint', () => {
  it('sorts', () => {
    expect(contentSort({ sort: 'newest' })).toEqual({ approvedAt: -1, _id: -1 })
    expect(contentSort({ sort: 'oldest' })).toEqual({ approvedAt: 1, _id: 1 })
    expect(contentSort({ sort: 'alpha' })).toEqual({ title: 1, _id: 1 })
    expect(contentSort({ sort: 'relevance', text: { terms: ['rust'], shortTerms: [] } })).toEqual({
      score: { $meta: 'textScore' }, approvedAt: -1, _id: -1,
    })
    // No text score without the text index: newest, as SQLite does.
    expect(contentSort({ sort: 'relevance' })).toEqual({ approvedAt: -1, _id: -1 })
    expect(contentSort({ sort: 'relevance', text: { terms: ['the'], shortTerms: [] } })).toEqual({ approvedAt: -1, _id: -1 })
  })
  it('projects the score only for text-index searches', () => {
    expect(contentProjection({})).toEqual(CONTENT_PROJECTION)
    expect(contentProjection({ text: { terms: ['rust'], shortTerms: [] } })).toEqual({ ...CONTENT_PROJECTION, score: { $meta: 'textScore' } })
  })
  it("short-term searches walk their sort's list index (hinted by key pattern), which carries the title", () => {
    const keyOf = (name: string) => serviceIndexes('contents').find((p) => p.index.name === name)!.index.key
    expect(contentHint({ ...q, text: { terms: [], shortTerms: ['ai'] } })).toEqual(keyOf('raw_content_list'))
    expect(contentHint({ ...q, sort: 'alpha', text: { terms: [], shortTerms: ['ai'] } })).toEqual(keyOf('raw_content_alpha'))
    expect(contentHint({ ...q, sort: 'submittedOldest', text: { terms: [], shortTerms: ['ai'] } })).toEqual(keyOf('raw_content_submitted'))
    expect(contentHint({ ...q, sort: 'relevance', text: { terms: [], shortTerms: ['ai'] } })).toEqual(keyOf('raw_content_list'))
    expect(contentHint({ ...q, text: { terms: ['rust'], shortTerms: ['ai'] } })).toBeUndefined()
    expect(contentHint(q)).toBeUndefined()
  })
})

describe('related, tags, usage, rename, transitions, claims, counters', () => {
  it('related: channel scores 2, each shared tag 1, the item itself excluded', () => {
    expect(relatedPipeline({ id: A, channelId: B, tagSlugs: ['ai'] }, 10)).toEqual([
      {
        $match: {
          status: 'approved', isActive: true, _id: { $ne: new ObjectId(A) },
          $or: [{ tagSlugs: { $in: ['ai'] } }, { channel: new ObjectId(B) }],
        },
      },
      {
        $addFields: {
          score: {
            $add: [
              { $cond: [{ $eq: ['$channel', new ObjectId(B)] }, 2, 0] },
              { $size: { $setIntersection: [{ $ifNull: ['$tagSlugs', []] }, ['ai']] } },
            ],
          },
        },
      },
      { $sort: { score: -1, approvedAt: -1, _id: -1 } },
      { $limit: 10 },
      { $project: CONTENT_PROJECTION },
    ])
    expect(relatedPipeline({ id: A, channelId: null, tagSlugs: [] }, 5)[1]).toEqual({
      $addFields: { score: { $add: [0, { $size: { $setIntersection: [{ $ifNull: ['$tagSlugs', []] }, []] } }] } },
    })
  })
  it('tag list: facet ids and an anchored, escaped, case-insensitive prefix on slug or label', () => {
    expect(tagFilter({ facetIds: [A], prefix: 'c+' })).toEqual({
      facet: { $in: [new ObjectId(A)] },
      $or: [{ slug: { $regex: '^c\\+', $options: 'i' } }, { label: { $regex: '^c\\+', $options: 'i' } }],
    })
    expect(tagFilter({})).toEqual({})
    expect(TAG_SORT).toEqual({ label: 1, slug: 1 })
  })
  it('tag usage counts approved, active content holding the tag, by equality on the tag index\'s leading keys (index keys only, no document)', () => {
    expect(tagUsageFilter('ai')).toEqual({ tagSlugs: 'ai', status: 'approved', isActive: true })
    const key = serviceIndexes('contents').find((p) => p.index.name === 'raw_content_tags')!.index.key as Record<string, unknown>
    expect(Object.keys(key).slice(0, 3)).toEqual(Object.keys(tagUsageFilter('ai')))
  })
  it('transition is guarded by the status read, on an active item', () => {
    const at = new Date('2024-01-01T00:00:00Z')
    const t = { id: A, from: 'pending' as const, to: 'approved' as const, at, approvedAt: at, rejectionReason: null, followUps: [],
      event: { actorId: null, action: 'approve' as const, targetSlug: 's', stateBefore: 'pending', stateAfter: 'approved', reason: null, at } }
    const move = statusMovePlan(t).steps[0]!
    if (move.op !== 'update') throw new Error('the move is an update')
    expect(filterOf(move.where)).toEqual({ $and: [{ _id: new ObjectId(A) }, { status: 'pending' }, { isActive: { $ne: false } }] })
    expect(updateOf(move.set, move.inc, [])).toEqual({ $set: { status: 'approved', approvedAt: at, rejectionReason: null, updatedAt: at } })
  })
  it('refresh-token claim only matches an unrevoked token', () => {
    const now = new Date('2024-01-01T00:00:00Z')
    const claim = (successor?: { sealed: string; until: Date }) => {
      const step = refreshClaimPlan('h', 'rotated', now, successor).steps[0]!
      if (step.op !== 'update') throw new Error('the claim is an update')
      return { filter: filterOf(step.where), update: updateOf(step.set, step.inc, []) }
    }
    expect(claim().filter).toEqual({ $and: [{ tokenHash: 'h' }, { revokedAt: null }] })
    expect(claim().update).toEqual({ $set: { revokedAt: now, revokedReason: 'rotated', updatedAt: now, graceToken: null, graceUntil: null } })
    // Reuse grace: the sealed successor rides on the same conditional update.
    const until = new Date(now.getTime() + 30_000)
    expect(claim({ sealed: 'S', until }).update).toEqual({
      $set: { revokedAt: now, revokedReason: 'rotated', updatedAt: now, graceToken: 'S', graceUntil: until },
    })
  })
  it('a duplicate key on the slug is a taken slug, raw or through Payload', async () => {
    // As the server reports it: the index in the message, the key in keyValue.
    const dup = (keyValue?: object) =>
      new MongoServerError({ message: 'E11000 duplicate key error collection: app.tags index: slug_1 dup key: { slug: "x" }', code: 11000, ...(keyValue ? { keyValue } : {}) })
    expect(isDuplicateSlug(dup({ slug: 'x' }))).toBe(true)
    expect(isDuplicateSlug(dup())).toBe(true)
    expect(isDuplicateSlug(new MongoServerError({ message: 'E11000 duplicate key error collection: app.tags index: label_1 dup key', code: 11000, keyValue: { label: 'x' } }))).toBe(false)
    expect(isDuplicateSlug(new MongoServerError({ message: 'other', code: 2 }))).toBe(false)
    const { ValidationError } = await import('payload')
    expect(isDuplicateSlug(new ValidationError({ collection: 'tags', errors: [{ message: 'Value must be unique', path: 'slug' }] }))).toBe(true)
  })
})

describe('indexes', () => {
  it('names every index; text index, list indexes, the admin list (status, approvedAt), rate-limit TTL and key', () => {
    const plans = serviceIndexes('contents')
    expect(plans.map((p) => `${p.collection}.${p.index.name}`)).toEqual([
      'contents.raw_content_text',
      'contents.raw_content_list',
      'contents.raw_content_alpha',
      'contents.raw_content_submitted',
      'contents.raw_content_tags',
      'contents.raw_content_group_list',
      'contents.raw_content_channel_list',
      'contents.raw_content_platform_list',
      'contents.raw_content_status_approved_at',
      'contents.raw_content_approved_at',
      'contents.raw_content_by_submitter',
      'contents.raw_content_url_key',
      'raw_rate_limits.raw_rate_limits_expire',
      'raw_rate_limits.raw_rate_limits_key',
    ])
    expect(plans[8]!.index.key).toEqual({ status: 1, approvedAt: -1, createdAt: -1, _id: -1 })
    expect(plans[12]!.index).toMatchObject({ key: { expire: -1 }, expireAfterSeconds: 0 })
    expect(plans[13]!.index).toMatchObject({ key: { key: 1 }, unique: true })
  })
})

describe('every list query is served by an index that provides its sort (no blocking sort at a million documents)', () => {
  type Key = Record<string, unknown>
  const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v) || v instanceof ObjectId || v instanceof Date
  /** A point condition: an equality, or an $in of values (the server merges one ordered scan per value). */
  const isPoint = (cond: unknown) =>
    isScalar(cond) || (typeof cond === 'object' && cond !== null && Object.keys(cond).length === 1 && Array.isArray((cond as { $in?: unknown }).$in) && (cond as { $in: unknown[] }).$in.every(isScalar))
  /**
   * Whether an index's keys give `sort` for `filter`, as the query planner reads them: leading
   * fields each under a point condition, then the sort's fields in order, all in the sort's
   * directions or all reversed (a range or no condition on the sort's fields is fine).
   */
  function providesSort(key: Key, filter: Key, sort: Key): boolean {
    const fields = Object.keys(key)
    const wanted = Object.entries(sort)
    for (let at = 0; at <= fields.length - wanted.length; at++) {
      const sign = Number(key[fields[at]!]) * Number(wanted[0]![1])
      const fits = wanted.every(([field, dir], i) => fields[at + i] === field && Number(key[field]) * Number(dir) === sign)
      if (fits) return true
      if (!isPoint(filter[fields[at]!])) return false
    }
    return false
  }
  const indexes = serviceIndexes('contents').filter((p) => p.collection === 'contents' && !Object.values(p.index.key).includes('text'))
  for (const shape of listShapes())
    it(`${shape.name}: every sort`, () => {
      for (const query of shape.queries) {
        const f = contentFilter(query) as Key
        const hint = contentHint(query)
        const usable = hint ? indexes.filter((p) => JSON.stringify(p.index.key) === JSON.stringify(hint)) : indexes
        const by = usable.find((p) => providesSort(p.index.key as Key, f, contentSort(query) as Key))
        expect(by, `${shape.name} / ${query.sort}: ${JSON.stringify(f)} sorted ${JSON.stringify(contentSort(query))}`).toBeDefined()
      }
    })
  it('one submitter\'s items (GET /auth/me/submissions), inactive or not', () => {
    for (const includeInactive of [false, true]) {
      const f = submissionsFilter({ submitterId: A, includeInactive }) as Key
      expect(indexes.some((p) => providesSort(p.index.key as Key, f, SUBMISSIONS_SORT as Key))).toBe(true)
    }
  })
})

describe('transient retries', () => {
  const labelled = (label: string) => {
    const e = new MongoServerError({ message: label, code: 251 })
    e.addErrorLabel(label)
    return e
  }
  it('WriteConflict and TransientTransactionError are transient; an unknown commit result and others are not', () => {
    expect(isTransient(new MongoServerError({ message: 'WriteConflict', code: 112 }))).toBe(true)
    expect(isTransient(labelled('TransientTransactionError'))).toBe(true)
    expect(isTransient(labelled('UnknownTransactionCommitResult'))).toBe(false)
    expect(isTransient(new MongoError('x'))).toBe(false)
    expect(isTransient(new TypeError('x'))).toBe(false)
  })
  it('recognises errors from another copy of the driver by code and labels, not by class', () => {
    // What a second `mongodb` in node_modules (mongoose's own) would throw: same shape, other class.
    class OtherCopyError extends Error {
      constructor(readonly code: number | undefined, readonly errorLabels: string[]) {
        super('from another copy')
      }
    }
    expect(isTransient(new OtherCopyError(112, []))).toBe(true)
    expect(isTransient(new OtherCopyError(undefined, ['TransientTransactionError']))).toBe(true)
    expect(isTransient(new OtherCopyError(11000, ['UnknownTransactionCommitResult']))).toBe(false)
    expect(isTransient({ code: '112' })).toBe(false)
  })
  it('retries a transient failure until it succeeds, for at most 1.5 s from the first attempt, backoff bounded', async () => {
    let calls = 0
    expect(
      await withTransientRetry(async () => {
        calls += 1
        if (calls < 3) throw new MongoServerError({ message: 'WriteConflict', code: 112 })
        return 'ok'
      }),
    ).toBe('ok')
    expect(calls).toBe(3)
    // A time budget, not a count: on a clock that advances only by the waits, with the longest
    // waits (10, 20, 40, 80, 160, then 250 ms each), attempts go on while the next starts within 1.5 s.
    let now = 0
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms), random: () => 1 }
    calls = 0
    await expect(
      retryTransient(async () => {
        calls += 1
        throw labelled('TransientTransactionError')
      }, isTransient, clock),
    ).rejects.toThrow('TransientTransactionError')
    expect(calls).toBe(10)
    expect(now).toBeLessThanOrEqual(RETRY_BUDGET_MS)
    calls = 0
    await expect(withTransientRetry(async () => { calls += 1; throw new MongoServerError({ message: 'dup', code: 11000 }) })).rejects.toThrow('dup')
    expect(calls).toBe(1)
    expect(backoffMs(1, () => 0)).toBe(5)
    expect(backoffMs(1, () => 1)).toBe(10)
    expect(backoffMs(20, () => 1)).toBe(250)
  })
})

describe('related items carried to a new content version (carryRelated)', () => {
  const item = { id: A, channelId: B, tagSlugs: ['ai', 'ml'] }
  let n = 0
  /** An approved, active row; later `n` is a later id, `day` its approval. */
  const row = (fields: Partial<ContentRecord> & { day: number }): ContentRecord =>
    ({
      id: `65a1b2c3d4e5f607182a${(n++).toString(16).padStart(4, '0')}`,
      slug: `s${n}`, title: 't', description: null, url: 'https://x.test', tagSlugs: [], groupId: null, channelId: null, platformId: null,
      status: 'approved', isActive: true, submittedBy: null, approvedAt: `2024-01-${String(fields.day).padStart(2, '0')}T00:00:00.000Z`,
      rejectionReason: null, thumbnailUrl: null, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z',
      ...fields,
    }) as ContentRecord
  /** What relatedPipeline would answer over `all`: score (2 × channel + shared tags), approval, id; all descending. */
  const whole = (all: ContentRecord[], limit: number) =>
    all
      .filter((r) => r.id !== item.id && r.status === 'approved' && r.isActive)
      .map((r) => ({ r, s: (r.channelId === item.channelId ? 2 : 0) + r.tagSlugs.filter((t) => item.tagSlugs.includes(t)).length }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || b.r.approvedAt!.localeCompare(a.r.approvedAt!) || b.r.id.localeCompare(a.r.id))
      .slice(0, limit)
      .map((x) => x.r.id)

  it('a new approval merges in by score, then approval, then id: the same answer as reading every holder again', () => {
    const before = [row({ day: 1, tagSlugs: ['ai'] }), row({ day: 2, channelId: B }), row({ day: 3, tagSlugs: ['ai', 'ml'] }), row({ day: 4, tagSlugs: ['ml'] }), row({ day: 5, tagSlugs: ['x'] })]
    const kept = before.filter((r) => whole(before, 3).includes(r.id)).sort((a, b) => whole(before, 3).indexOf(a.id) - whole(before, 3).indexOf(b.id))
    for (const added of [row({ day: 6, tagSlugs: ['ai'] }), row({ day: 6, channelId: B, tagSlugs: ['ai'] }), row({ day: 6, tagSlugs: ['zz'] }), row({ day: 6, tagSlugs: ['ai'], status: 'pending' })]) {
      const carried = carryRelated(item, kept, new Set([added.id]), [added], 3)!
      expect(carried.map((r) => r.id)).toEqual(whole([...before, added], 3))
    }
  })

  it('a row written since that was not shown and is gone or unapproved changes nothing; one that was shown sends it back to read all', () => {
    const rows = [row({ day: 1, tagSlugs: ['ai'] }), row({ day: 2, tagSlugs: ['ml'] })]
    const gone = row({ day: 3, tagSlugs: ['ai'] }).id
    expect(carryRelated(item, rows, new Set([gone]), [], 5)!.map((r) => r.id)).toEqual([rows[1]!.id, rows[0]!.id])
    expect(carryRelated(item, rows, new Set([rows[0]!.id]), [{ ...rows[0]!, isActive: false }], 5)).toBeUndefined()
  })

  it('never shows the item itself', () => {
    const self = { ...row({ day: 9, tagSlugs: ['ai'] }), id: A }
    expect(carryRelated(item, [], new Set([A]), [self], 5)).toEqual([])
  })
})
