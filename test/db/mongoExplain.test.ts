/**
 * MongoDB only (`npm run test:mongo`, a real replica set): every list query's winning plan walks an
 * index in the order it answers, with no blocking SORT stage (a SORT_MERGE of ordered scans is
 * fine), as test/db/mongoQueries.test.ts reads it from the index list. Text searches sort their
 * matches by nature and are left out. The collection holds a few thousand skewed documents first
 * (most approved, one hot tag, one big channel): on an empty collection tie-breaks pick the plan,
 * and a plan that is only right by accident passes. On SQLite this file has nothing to check (its indexes are
 * held by test/db/migrations.test.ts and the benchmarks).
 */
import type { Document } from 'mongodb'
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { testApp, type TestApp } from '../support/app'
import { listShapes } from '../support/listShapes'

/** Every stage name in an explain's winning plan, in either plan format (classic or SBE's `queryPlan`). */
function stagesOf(plan: unknown, out: string[] = []): string[] {
  if (Array.isArray(plan)) for (const p of plan) stagesOf(p, out)
  else if (plan && typeof plan === 'object') {
    const stage = (plan as { stage?: unknown }).stage
    if (typeof stage === 'string') out.push(stage)
    for (const [key, value] of Object.entries(plan)) if (key !== 'rejectedPlans') stagesOf(value, out)
  }
  return out
}

describe.runIf(getConfig().database.engine === 'mongodb')('every list query is index-ordered on a real server (MongoDB explain)', () => {
  let app: TestApp
  let queries: typeof import('../../src/db/mongo/contentQueries')
  let native: typeof import('../../src/db/mongo/native')

  /** The seeded documents: 3,000, 85% approved (the rest pending or rejected), a tag on half of them, one channel holding 60%. */
  const SEEDED = 3_000
  beforeAll(async () => {
    app = await testApp()
    queries = await import('../../src/db/mongo/contentQueries')
    native = await import('../../src/db/mongo/native')
    const { engine } = await import('../../src/db/engine')
    const { ObjectId } = await import('mongodb')
    const [big, small] = [new ObjectId().toHexString(), new ObjectId().toHexString()]
    const start = Date.UTC(2025, 0, 1)
    const rows = Array.from({ length: SEEDED }, (_, i) => {
      const status = i % 20 < 17 ? ('approved' as const) : i % 20 < 19 ? ('pending' as const) : ('rejected' as const)
      const at = new Date(start + i * 3_600_000).toISOString()
      return {
        slug: `explain-${i}`,
        title: `Explain item ${i}`,
        url: `https://example.com/explain/${i}`,
        tagSlugs: i % 2 === 0 ? ['hot', `t${i % 50}`] : [`t${i % 50}`],
        groupId: null,
        channelId: i % 5 < 3 ? big : small,
        platformId: null,
        status,
        isActive: i % 97 !== 0,
        submittedBy: null,
        approvedAt: status === 'approved' ? at : null,
        createdAt: at,
        updatedAt: at,
      }
    })
    await engine().contentStore(app.payload).insertContent(rows)
  }, 300_000)

  it('no blocking SORT in the winning plan of any list shape, any sort', async () => {
    const content = native.payloadCollection<Document>(app.payload, 'content')
    const blocking: string[] = []
    for (const shape of listShapes())
      for (const query of shape.queries) {
        if (queries.textMode(query) === 'index') continue
        const hint = queries.contentHint(query)
        const explain = await content
          .find(queries.contentFilter(query) as Document, { projection: queries.contentProjection(query), ...(hint ? { hint } : {}) })
          .sort(queries.contentSort(query))
          .limit(query.limit)
          .explain('queryPlanner')
        if (stagesOf((explain.queryPlanner as Document).winningPlan).includes('SORT')) blocking.push(`${shape.name} / ${query.sort}`)
      }
    expect(blocking).toEqual([])
  })

  it('the newest public page reads its 20 documents, not the collection (executionStats)', async () => {
    const content = native.payloadCollection<Document>(app.payload, 'content')
    const query = { statuses: ['approved' as const], includeInactive: false, sort: 'newest' as const, offset: 0, limit: 20, estimate: false }
    const explain = (await content
      .find(queries.contentFilter(query) as Document, { projection: queries.contentProjection({}) })
      .sort(queries.contentSort(query))
      .limit(20)
      .explain('executionStats')) as Document
    const stats = explain.executionStats as { nReturned: number; totalDocsExamined: number; totalKeysExamined: number }
    expect(stats.nReturned).toBe(20)
    // The list index gives the order and the filter: each document read is one answered (a few
    // more at most for inactive ones skipped on the way).
    expect(stats.totalDocsExamined).toBeLessThanOrEqual(25)
    expect(stats.totalKeysExamined).toBeLessThanOrEqual(30)
  })

  it("a tag's usage count reads index keys only: the tag index, no document fetched", async () => {
    const content = native.payloadCollection<Document>(app.payload, 'content')
    const explain = (await content.aggregate([{ $match: queries.tagUsageFilter('ai') }, { $group: { _id: 1, n: { $sum: 1 } } }]).explain('queryPlanner')) as Document
    const stages = stagesOf(explain)
    expect(stages.some((s) => s === 'IXSCAN' || s === 'COUNT_SCAN')).toBe(true)
    expect(stages).not.toContain('FETCH')
    expect(stages).not.toContain('COLLSCAN')
  })
})
