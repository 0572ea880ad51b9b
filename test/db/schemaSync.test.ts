/**
 * SQLite schema sync at start-up: drizzle-kit pushes Payload's schema only when its
 * fingerprint differs from the one stored after the last successful sync (raw_schema_sync);
 * a change that would lose data still refuses to start and records nothing.
 */
import { integer, sqliteTable, text, index } from '@payloadcms/db-sqlite/drizzle/sqlite-core'
import Database from 'libsql'
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/config'
import { sqliteFileOf } from '../../src/db/sqlite/connection'
import { schemaFingerprint } from '../../src/db/sqlite/schemaFingerprint'
import { syncSqliteSchema } from '../../src/db/sqlite/schemaSync'
import { SCHEMA_SYNC_TABLE } from '../../src/db/sqlite/tables'
import { testApp } from '../support/app'

const sqlite = !process.env.DATABASE_URI?.startsWith('mongodb')

type Adapter = { schema: Record<string, unknown>; requireDrizzleKit: () => unknown }

describe.runIf(sqlite)('SQLite schema sync', () => {
  let payload: Awaited<ReturnType<typeof testApp>>['payload']
  let file: string
  let adapter: Adapter
  let kitLoads = 0
  const stored = () => {
    const db = new Database(file)
    try {
      return db.prepare(`SELECT fingerprint FROM ${SCHEMA_SYNC_TABLE}`).all() as { fingerprint: string }[]
    } finally {
      db.close()
    }
  }
  const setStored = (fingerprint: string) => {
    const db = new Database(file)
    db.prepare(`UPDATE ${SCHEMA_SYNC_TABLE} SET fingerprint = ?`).run(fingerprint)
    db.close()
  }

  beforeAll(async () => {
    payload = (await testApp()).payload
    file = sqliteFileOf(getConfig().database.uri)
    adapter = payload.db as unknown as Adapter
    // Counts the loads of drizzle-kit (the only way to a push) from here on.
    const load = adapter.requireDrizzleKit.bind(adapter)
    adapter.requireDrizzleKit = () => {
      kitLoads++
      return load()
    }
  })

  it('after the first start, the schema fingerprint is stored', () => {
    expect(stored()).toEqual([{ fingerprint: schemaFingerprint(adapter.schema) }])
    expect(schemaFingerprint(adapter.schema)).toMatch(/^[0-9a-f]{64}$/)
  })

  it('a start with the same schema neither loads drizzle-kit nor pushes', async () => {
    kitLoads = 0
    await expect(syncSqliteSchema(payload, file)).resolves.toBe(false)
    expect(kitLoads).toBe(0)
  })

  /** A start that loads drizzle-kit once, pushes, and records the current fingerprint. */
  async function expectPushRecorded(): Promise<void> {
    kitLoads = 0
    await expect(syncSqliteSchema(payload, file)).resolves.toBe(true)
    expect(kitLoads).toBe(1)
    expect(stored()).toEqual([{ fingerprint: schemaFingerprint(adapter.schema) }])
  }

  it('a changed schema (a stored fingerprint that differs) pushes and stores the new fingerprint', async () => {
    setStored('0'.repeat(64))
    await expectPushRecorded()
  })

  it('a missing fingerprint row (a database from before this record) pushes', async () => {
    const db = new Database(file)
    db.exec(`DELETE FROM ${SCHEMA_SYNC_TABLE}`)
    db.close()
    await expectPushRecorded()
  })

  it('a change that would lose data refuses, changes nothing and records no sync', async () => {
    const db = new Database(file)
    // A column Payload's schema does not have, holding data: the push would drop it.
    db.exec("ALTER TABLE users ADD COLUMN legacy_note text DEFAULT 'kept'")
    db.close()
    setStored('1'.repeat(64))
    await expect(syncSqliteSchema(payload, file)).rejects.toThrow(/would lose data/)
    expect(stored()).toEqual([{ fingerprint: '1'.repeat(64) }])
    const after = new Database(file)
    expect(after.prepare('SELECT DISTINCT legacy_note FROM users').all()).toEqual([{ legacy_note: 'kept' }])
    after.exec('ALTER TABLE users DROP COLUMN legacy_note')
    after.close()
    await expect(syncSqliteSchema(payload, file)).resolves.toBe(true)
  })

  it('the fingerprint changes with any column, default, index or table change, and only then', () => {
    const base = () => ({
      things: sqliteTable('things', { id: integer('id').primaryKey(), name: text('name').notNull() }, (t) => [index('things_name_idx').on(t.name)]),
    })
    const fp = schemaFingerprint(base())
    expect(schemaFingerprint(base())).toBe(fp)
    const variants = [
      { things: sqliteTable('things', { id: integer('id').primaryKey(), name: text('name') }, (t) => [index('things_name_idx').on(t.name)]) },
      { things: sqliteTable('things', { id: integer('id').primaryKey(), name: text('name').notNull().default('x') }, (t) => [index('things_name_idx').on(t.name)]) },
      { things: sqliteTable('things', { id: integer('id').primaryKey(), name: integer('name').notNull() }, (t) => [index('things_name_idx').on(t.name)]) },
      { things: sqliteTable('things', { id: integer('id').primaryKey(), name: text('name').notNull() }) },
      { things: sqliteTable('things', { id: integer('id').primaryKey(), name: text('name').notNull() }, (t) => [index('things_name_idx').on(t.name, t.id)]) },
      { things: sqliteTable('things', { id: integer('id').primaryKey(), name: text('name').notNull().unique() }, (t) => [index('things_name_idx').on(t.name)]) },
      { things: sqliteTable('things_2', { id: integer('id').primaryKey(), name: text('name').notNull() }, (t) => [index('things_name_idx').on(t.name)]) },
      { ...base(), more: sqliteTable('more', { id: integer('id').primaryKey() }) },
    ]
    const prints = variants.map(schemaFingerprint)
    expect(new Set([fp, ...prints]).size).toBe(variants.length + 1)
  })
})
