import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/config'
import { connection, sqliteFileOf } from '../../src/db/sqlite/connection'
import { testApp, type TestApp } from '../support/app'
import { engine } from '../../src/db/engine'
import { seedContent, seedDemo, seedDemoIfEmpty, seedTags } from '../../src/services/seed'

let app: TestApp
const onMongo = getConfig().database.engine !== 'sqlite'
const sqliteDb = () => connection(sqliteFileOf(getConfig().database.uri))
const ftsRows = async () => Number((sqliteDb().prepare('SELECT count(*) AS n FROM raw_content_fts').get() as { n: number }).n)
const count = async (collection: string, where: Record<string, unknown> = {}) =>
  (await app.payload.count({ collection: collection as 'tags', where: where as never, overrideAccess: true })).totalDocs

beforeAll(async () => {
  app = await testApp()
})

describe('seeding', () => {
  it('the demo seed loads the taxonomy and 200 items in all three states, once', async () => {
    expect(await seedDemoIfEmpty(app.payload)).toBe(true)
    expect(await count('surfaces')).toBe(2)
    expect(await count('groups')).toBe(4)
    expect(await count('channels')).toBe(8)
    expect(await count('platforms')).toBe(3)
    expect(await count('tags')).toBe(20)
    const facets = await app.payload.find({ collection: 'tags', pagination: false, depth: 1, overrideAccess: true })
    expect(new Set(facets.docs.map((t: any) => t.facet.key))).toEqual(new Set(['topic', 'format', 'level', 'source-type', 'unclassified']))
    expect(await count('content')).toBe(200)
    for (const status of ['approved', 'pending', 'rejected']) expect(await count('content', { status: { equals: status } })).toBeGreaterThan(0)
    expect(await seedDemoIfEmpty(app.payload)).toBe(false)
    expect(await count('content')).toBe(200)
  })

  it('bulk-inserted items are listed, searchable (FTS kept in sync) and filterable by tag', async () => {
    const tags = await seedTags(app.payload, 10)
    expect(await count('tags')).toBe(30)
    const before = (await app.request('GET', '/v1/content?limit=0')).body.pagination.total
    expect(await seedContent(app.payload, 500, { tags, seed: 3 })).toBe(500)
    expect(await count('content')).toBe(700)
    const after = await app.request('GET', '/v1/content?limit=0')
    expect(after.body.pagination.total).toBe(before + 500)
    const search = await app.request('GET', '/v1/content?q=typescript&limit=5')
    expect(search.body.pagination.total).toBeGreaterThan(0)
    for (const item of search.body.data) expect(`${item.title} ${item.description}`.toLowerCase()).toContain('typescript')
    const byTag = await app.request(`GET`, `/v1/content?tags=${tags[0]}&limit=200`)
    expect(byTag.body.pagination.total).toBeGreaterThan(0)
    for (const item of byTag.body.data) expect(item.tagSlugs).toContain(tags[0])
    const tag = await app.request('GET', `/v1/tags/${tags[0]}`)
    expect(tag.body.data.usageCount).toBe(byTag.body.pagination.total)
  })

  // SQLite only: its text index is a separate FTS5 table kept in sync by triggers; MongoDB's
  // text index is part of the collection itself, so there is nothing to drift or count.
  it.skipIf(onMongo)('the SQLite FTS5 table holds every row', async () => {
    expect(await ftsRows()).toBe(700)
  })

  it('a second demo seed adds content but reuses the taxonomy', async () => {
    await seedDemo(app.payload)
    expect(await count('surfaces')).toBe(2)
    expect(await count('groups')).toBe(4)
    expect(await engine().contentStore(app.payload).countContent()).toBe(900)
  })

  it('the start-up preparation is idempotent', async () => {
    await engine().contentStore(app.payload).prepare()
    await engine().contentStore(app.payload).prepare()
    expect(await engine().contentStore(app.payload).countContent()).toBe(900)
    expect((await app.request('GET', '/v1/content?q=typescript&limit=1')).body.pagination.total).toBeGreaterThan(0)
  })

  // SQLite only (see above): the FTS5 table can drift from the content table; start-up rebuilds it.
  it.skipIf(onMongo)('the start-up preparation rebuilds a drifted SQLite FTS5 table', async () => {
    sqliteDb().exec('DELETE FROM raw_content_fts WHERE rowid IN (SELECT rowid FROM raw_content_fts LIMIT 5)')
    expect(await ftsRows()).toBe(895)
    await engine().contentStore(app.payload).prepare()
    expect(await ftsRows()).toBe(900)
  })
})
