/**
 * The SQLite bulk load behind `npm run seed -- --content N` (src/db/sqlite/bulkLoad.ts) drops
 * the non-unique indexes and the text-index/tag and change-counter insert triggers for the
 * load and does their work at the end, in one transaction. Afterwards the schema must be what
 * it was, the side tables must hold every new row, the counter must have moved, later writes
 * must still be maintained by the triggers, and a load that fails part-way must leave nothing
 * behind (no rows, schema intact).
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { engine, type NewContent } from '../../src/db/engine'
import { connection, sqliteFileOf } from '../../src/db/sqlite/connection'
import { seedContent } from '../../src/seed/seed'
import { testApp, type TestApp } from '../support/app'

const onMongo = getConfig().database.engine !== 'sqlite'
let app: TestApp

const db = () => connection(sqliteFileOf(getConfig().database.uri))
const one = (sql: string, ...args: unknown[]) => Number(Object.values(db().prepare(sql).get(...args) as object)[0])
const schema = () =>
  db()
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'content' AND type IN ('index', 'trigger') ORDER BY type, name")
    .all()

describe.skipIf(onMongo)('SQLite bulk content load', () => {
  beforeAll(async () => {
    app = await testApp()
  })

  it('leaves the schema as it was, every new row in the text index and tag table, the content counter moved', async () => {
    const before = schema()
    const version = one("SELECT n FROM raw_versions WHERE name = 'content'")
    const rowsBefore = one('SELECT count(*) FROM content')
    const progress: number[] = []
    const steps: string[] = []
    expect(await seedContent(app.payload, 12_000, { seed: 5, progress: { rows: (n) => progress.push(n), step: (s) => steps.push(s) } })).toBe(12_000)

    expect(schema()).toEqual(before)
    const rows = one('SELECT count(*) FROM content')
    expect(rows).toBe(rowsBefore + 12_000)
    expect(one('SELECT count(*) FROM raw_content_fts')).toBe(rows)
    const consistent = one(`SELECT count(*) FROM content c WHERE (SELECT count(*) FROM raw_content_tags t WHERE t.content_rowid = c.rowid)
      = (SELECT count(DISTINCT j.value) FROM json_each(c.tag_slugs) j WHERE j.type = 'text')`)
    expect(consistent).toBe(rows)
    expect(one("SELECT n FROM raw_versions WHERE name = 'content'")).toBeGreaterThan(version)
    // Progress after every batch of 5,000, then the finishing steps.
    expect(progress).toEqual([5000, 10_000, 12_000])
    expect(steps.slice(0, 2)).toEqual(['text index', 'tag index'])

    // The triggers are back: a later title change reaches the text index.
    const id = (db().prepare('SELECT id FROM content ORDER BY rowid DESC LIMIT 1').get() as { id: string }).id
    await app.payload.update({ collection: 'content', id, data: { title: 'Zyxwvut bulk check' }, overrideAccess: true })
    const found = await app.request('GET', '/v1/content?q=zyxwvut')
    expect(found.body.pagination.total).toBe(1)
  })

  it('a load that fails part-way leaves no rows and the schema intact', async () => {
    const before = schema()
    const rowsBefore = one('SELECT count(*) FROM content')
    const existingSlug = (db().prepare('SELECT slug FROM content LIMIT 1').get() as { slug: string }).slug
    const stamp = new Date().toISOString()
    const item = (n: number, slug = `bulk-fail-${n}`): NewContent => ({
      slug, title: `Bulk fail ${n}`, description: null, url: `https://bulk-fail.example.com/${n}`, tagSlugs: [],
      groupId: null, channelId: null, platformId: null, status: 'approved', isActive: true, submittedBy: null,
      approvedAt: stamp, rejectionReason: null, createdAt: stamp, updatedAt: stamp,
    })
    // The second batch repeats a slug: the unique index refuses it.
    const batches = [[item(1), item(2)], [item(3), item(4, existingSlug)]]
    await expect(engine().contentStore(app.payload).bulkLoadContent(batches)).rejects.toThrow(/UNIQUE/)
    expect(one('SELECT count(*) FROM content')).toBe(rowsBefore)
    expect(one("SELECT count(*) FROM content WHERE slug LIKE 'bulk-fail-%'")).toBe(0)
    expect(schema()).toEqual(before)
  })
})
