/**
 * The content record is defined once (src/db/contentRecord.ts) and held here to what Payload
 * stores: every field of the Content collection is in the record or named below as left out
 * (with why), every field of the record is Payload's, every SQLite column it names exists in a
 * real database, and a row written by the service's insert reads back field for field on the
 * running engine. Adding a field to one and not the other fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { Content } from '../../collections/Content'
import { getConfig } from '../../src/platform/config'
import { CONTENT_FIELD_NAMES, CONTENT_FIELDS } from '../../src/db/contentRecord'
import type { NewContent, ValueFilters } from '../../src/db/contentTypes'
import { testApp, type TestApp } from '../support/app'

/** Content fields that are not in the record, and why. */
const LEFT_OUT: Record<string, string> = {
  thumbnail: 'the upload itself: the record carries thumbnailUrl, derived from it on every write',
  urlKey: 'the duplicate-URL key: written by the stores and the hook, read by ?url= and the unique index',
  urlKeyOrdinal: 'the duplicate-URL ordinal, with urlKey',
}

/** Every field of the record unset (null): what a row reads back with where it was not written. */
const unset = Object.fromEntries(CONTENT_FIELD_NAMES.map((name) => [name, null]))

/** Payload's stored fields of the collection (named, not UI-only), and its timestamps. */
const payloadFields = [
  ...Content.fields.flatMap((f) => ('name' in f && f.type !== 'ui' ? [f.name] : [])),
  ...(Content.timestamps === false ? [] : ['createdAt', 'updatedAt']),
]

let app: TestApp
beforeAll(async () => {
  app = await testApp()
}, 120_000)

describe('the content record, defined once', () => {
  it('every field of the Content collection is in the record, or left out with a reason', () => {
    const inRecord = new Set<string>(CONTENT_FIELD_NAMES.map((name) => CONTENT_FIELDS[name].mongo))
    const missing = payloadFields.filter((f) => !inRecord.has(f) && !(f in LEFT_OUT))
    expect(missing).toEqual([])
  })

  it("every field of the record is one of Payload's (by its name there), and nothing left out is in it", () => {
    const names = new Set(payloadFields)
    const foreign = CONTENT_FIELD_NAMES.map((name) => CONTENT_FIELDS[name].mongo).filter((f) => f !== '_id' && !names.has(f))
    expect(foreign).toEqual([])
    for (const f of Object.keys(LEFT_OUT)) expect(names.has(f), `${f} is still a Content field`).toBe(true)
  })

  it.runIf(getConfig().database.engine === 'sqlite')("every column it names is in Payload's SQLite table", async () => {
    const { connection, sqliteFileOf } = await import('../../src/db/sqlite/connection')
    const columns = (connection(sqliteFileOf(getConfig().database.uri)).prepare('PRAGMA table_info(content)').all() as { name: string }[]).map((c) => c.name)
    const named = CONTENT_FIELD_NAMES.map((name) => CONTENT_FIELDS[name].sqlite)
    expect(named.filter((c) => !columns.includes(c))).toEqual([])
  })

  it.runIf(getConfig().database.engine === 'sqlite')("the public lists' update trigger compares every field lists read (a new one needs a migration that re-creates it)", async () => {
    const { connection, sqliteFileOf } = await import('../../src/db/sqlite/connection')
    const { CONTENT_SHAPE_FIELDS } = await import('../../src/db/freshness')
    const trigger = connection(sqliteFileOf(getConfig().database.uri))
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'raw_version_content_update_public'")
      .get() as { sql: string } | undefined
    expect(trigger).toBeDefined()
    const uncompared = Object.values(CONTENT_SHAPE_FIELDS).filter((column) => !trigger!.sql.includes(`old.${column} IS NOT new.${column}`))
    expect(uncompared).toEqual([])
  })

  it('a row written by the store reads back, field for field (the one INSERT and the one decoding)', async () => {
    const { engine } = await import('../../src/db/engine')
    const store = engine().contentStore(app.payload)
    const at = '2024-05-01T10:00:00.000Z'
    const row: NewContent = {
      slug: `record-round-trip-${Date.now()}`,
      title: 'Round trip',
      description: 'Every field, written once and read back',
      url: `https://example.com/round-trip/${Date.now()}`,
      tagSlugs: ['a-tag', 'another'],
      groupId: null,
      channelId: null,
      platformId: null,
      status: 'rejected',
      isActive: false,
      submittedBy: null,
      approvedAt: null,
      rejectionReason: 'not a fit',
      createdAt: at,
      updatedAt: at,
    }
    await store.insertContent([row])
    const read = await store.contentBySlug(row.slug)
    expect(read).toEqual({ ...unset, ...row, id: expect.any(String) })
  })

  it('a new row may leave out every field that may be null: it is stored as null', async () => {
    const { engine } = await import('../../src/db/engine')
    const store = engine().contentStore(app.payload)
    const at = '2024-05-02T10:00:00.000Z'
    const row: NewContent = {
      slug: `record-nulls-${Date.now()}`,
      title: 'Nulls left out',
      url: `https://example.com/nulls/${Date.now()}`,
      tagSlugs: [],
      status: 'pending',
      isActive: true,
      createdAt: at,
      updatedAt: at,
    }
    await store.insertContent([row])
    const read = await store.contentBySlug(row.slug)
    expect(read).toEqual({ ...unset, ...row, id: expect.any(String) })
    // The fields left out, by name (those the record has today), read back null.
    expect(read).toMatchObject({ description: null, groupId: null, channelId: null, platformId: null, submittedBy: null, approvedAt: null, rejectionReason: null })
  })

  it("a value filter (a field declared with `filter`) keeps the rows holding one of its values, on the running engine's list", async () => {
    // No field is declared with `filter` today: title stands in for one (what the declaration gives
    // a field is only its name in `values`), so both engines' builders are held to the rule.
    const { engine } = await import('../../src/db/engine')
    const store = engine().contentStore(app.payload)
    const at = '2024-05-03T10:00:00.000Z'
    const rows: NewContent[] = ['Filter kept one', 'Filter kept two', 'Filter dropped'].map((title, i) => ({
      slug: `record-filter-${i}-${Date.now()}`,
      title,
      url: `https://example.com/filter/${i}/${Date.now()}`,
      tagSlugs: [],
      status: 'approved',
      isActive: true,
      approvedAt: at,
      createdAt: at,
      updatedAt: at,
    }))
    await store.insertContent(rows)
    const page = await store.listContent({
      statuses: ['approved'],
      includeInactive: false,
      values: { title: ['Filter kept one', 'Filter kept two', 'No such title'] } as ValueFilters,
      sort: 'alpha',
      offset: 0,
      limit: 10,
      estimate: false,
    })
    expect(page.rows.map((r) => r.title)).toEqual(['Filter kept one', 'Filter kept two'])
    expect(page.total).toBe(2)
  })

  it("each engine's filter builder names the field's column or document field", async () => {
    const { valueFilters } = await import('../../src/db/contentRecord')
    const { contentFilter } = await import('../../src/db/mongo/contentQueries')
    const values = { title: ['a', 'b'], rejectionReason: [] } as ValueFilters
    expect(valueFilters({ values })).toEqual([[CONTENT_FIELDS.title, ['a', 'b']]])
    const f = contentFilter({ statuses: 'all', includeInactive: true, values, sort: 'newest', offset: 0, limit: 1, estimate: false })
    expect(f).toMatchObject({ title: { $in: ['a', 'b'] } })
    expect(f).not.toHaveProperty('rejectionReason')
  })
})
