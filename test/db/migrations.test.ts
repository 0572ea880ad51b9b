/**
 * SQLite's schema belongs to the checked-in migrations (src/db/sqlite/migrations): a new
 * database runs each once, a restart runs none, the service's raw objects all exist after
 * them, the latest migration's snapshot is the collections' schema (what `payload
 * migrate:create` would compare: a collection changed without a migration fails here), a
 * database Payload's dev push changed is refused, and the cross-process lock serialises
 * holders, names the holder to waiters and dies with a crashed holder.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import Database from 'libsql'
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { engine } from '../../src/db/engine'
import { sqliteFileOf } from '../../src/db/sqlite/connection'
import { checkContentSchema, requiredObjects } from '../../src/db/sqlite/contentSchema'
import { migrationLockFile, withSqliteMigrationLock } from '../../src/db/sqlite/migrationLock'
import { SQLITE_MIGRATIONS } from '../../src/db/sqlite/migrate'
import { testApp, type TestApp } from '../support/app'

const sqlite = getConfig().database.engine === 'sqlite'
const MIGRATION_DIR = path.resolve(import.meta.dirname, '../../src/db/sqlite/migrations')

type DrizzleKit = {
  generateDrizzleJson(schema: Record<string, unknown>): Promise<Record<string, unknown>>
  generateMigration(before: Record<string, unknown>, after: Record<string, unknown>): Promise<string[]>
}

describe.runIf(sqlite)('SQLite migrations', () => {
  let app: TestApp
  let file: string
  const open = () => new Database(file)
  const records = () => {
    const db = open()
    try {
      return db.prepare('SELECT name, batch FROM payload_migrations ORDER BY name').all() as { name: string; batch: number }[]
    } finally {
      db.close()
    }
  }
  const linesSince = (from: number, msg: string) => app.logs.slice(from).filter((l) => l.msg === msg)

  beforeAll(async () => {
    app = await testApp()
    file = sqliteFileOf(getConfig().database.uri)
  })

  it('a new database runs every checked-in migration once, in one batch, logged', () => {
    expect(SQLITE_MIGRATIONS.map((m) => m.name)).toEqual(
      readdirSync(MIGRATION_DIR).filter((f) => /^\d{8}_\d{6}_\w+\.ts$/.test(f)).map((f) => f.replace(/\.ts$/, '')).sort(),
    )
    expect(records()).toEqual(SQLITE_MIGRATIONS.map((m) => ({ name: m.name, batch: 1 })))
    expect(linesSince(0, 'migrations.applied')).toEqual([expect.objectContaining({ applied: SQLITE_MIGRATIONS.map((m) => m.name) })])
    expect(linesSince(0, 'migrations.lock_acquired')).toHaveLength(1)
    expect(linesSince(0, 'migrations.lock_released')).toHaveLength(1)
  })

  it("after them every raw object the service's SQL relies on exists, and the push's record is gone", () => {
    const db = open()
    try {
      const present = new Set(
        (db.prepare('SELECT type, name FROM sqlite_master').all() as { type: string; name: string }[]).map((r) => `${r.type} ${r.name}`),
      )
      expect(requiredObjects().filter((o) => !present.has(`${o.type} ${o.name}`))).toEqual([])
      expect(() => checkContentSchema(db)).not.toThrow()
      expect(present.has('table raw_schema_sync')).toBe(false)
      expect(db.prepare("SELECT name, n > 0 AS seeded FROM raw_versions ORDER BY name").all()).toEqual([
        { name: 'access', seeded: 1 },
        { name: 'all_content', seeded: 1 },
        { name: 'branding', seeded: 1 },
        { name: 'content', seeded: 1 },
        { name: 'taxonomy', seeded: 1 },
      ])
    } finally {
      db.close()
    }
  })

  it('a restart runs none of them and records nothing', async () => {
    const from = app.logs.length
    await engine().prepare(app.payload)
    expect(records()).toEqual(SQLITE_MIGRATIONS.map((m) => ({ name: m.name, batch: 1 })))
    expect(linesSince(from, 'migrations.up_to_date')).toEqual([expect.objectContaining({ migrations: SQLITE_MIGRATIONS.length })])
    expect(linesSince(from, 'migrations.applying')).toEqual([])
  })

  it("the latest migration's snapshot is the collections' schema: payload migrate:create would find no change", async () => {
    const kit = (app.payload.db as unknown as { requireDrizzleKit(): DrizzleKit }).requireDrizzleKit()
    const current = await kit.generateDrizzleJson((app.payload.db as unknown as { schema: Record<string, unknown> }).schema)
    const latest = readdirSync(MIGRATION_DIR).filter((f) => f.endsWith('.json')).sort().at(-1)!
    const snapshot = JSON.parse(readFileSync(path.join(MIGRATION_DIR, latest), 'utf8')) as Record<string, any>
    expect(await kit.generateMigration(snapshot, current)).toEqual([])
    // The comparison sees a change: a snapshot without a column the collections have.
    const changed = structuredClone(snapshot)
    delete changed.tables.content.columns.thumbnail_url
    expect(await kit.generateMigration(changed, current)).toEqual([expect.stringMatching(/ALTER TABLE `content` ADD `thumbnail_url` text/)])
  })

  it("a database Payload's development push changed (a 'dev' record, batch -1) is refused before anything runs", async () => {
    const db = open()
    db.prepare("INSERT INTO payload_migrations (name, batch) VALUES ('dev', -1)").run()
    try {
      const err = await engine().prepare(app.payload).then(() => null, (e: unknown) => e)
      expect((err as Error)?.name).toBe('DevPushDatabase')
      expect((err as Error).message).toMatch(/development push/)
    } finally {
      db.prepare("DELETE FROM payload_migrations WHERE batch = -1").run()
      db.close()
    }
    expect(records()).toEqual(SQLITE_MIGRATIONS.map((m) => ({ name: m.name, batch: 1 })))
  })

  it('a raw object missing (a migration that rebuilt content without its triggers) stops the start, named', async () => {
    const db = open()
    const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'raw_content_ai'").get() as { sql: string }
    db.exec('DROP TRIGGER raw_content_ai')
    try {
      const err = await engine().contentStore(app.payload).prepare().then(() => null, (e: unknown) => e)
      expect((err as Error)?.name).toBe('MissingSchemaObjects')
      expect((err as Error).message).toMatch(/^The database lacks trigger raw_content_ai: /)
    } finally {
      db.exec(sql)
      db.close()
    }
    await expect(engine().contentStore(app.payload).prepare()).resolves.toBeUndefined()
  })
})

describe.runIf(sqlite)('the SQLite migration lock', () => {
  let app: TestApp
  let file: string

  beforeAll(async () => {
    app = await testApp()
    file = sqliteFileOf(getConfig().database.uri)
  })

  it('a second holder waits for the first, naming it, and runs only once it is released', async () => {
    const order: string[] = []
    let release!: () => void
    const first = withSqliteMigrationLock(file, async () => {
      order.push('first in')
      await new Promise<void>((resolve) => (release = resolve))
      order.push('first out')
    })
    await new Promise((r) => setTimeout(r, 50))
    const from = app.logs.length
    const second = withSqliteMigrationLock(file, async () => void order.push('second'))
    for (let i = 0; i < 100 && !app.logs.slice(from).some((l) => l.msg === 'migrations.waiting'); i++) await new Promise((r) => setTimeout(r, 50))
    const waiting = app.logs.slice(from).find((l) => l.msg === 'migrations.waiting')
    expect(waiting?.holder).toMatchObject({ pid: process.pid, host: expect.any(String), since: expect.any(String) })
    expect(order).toEqual(['first in'])
    release()
    await Promise.all([first, second])
    expect(order).toEqual(['first in', 'first out', 'second'])
    expect(existsSync(`${migrationLockFile(file)}.holder`)).toBe(false)
  })

  // Also a holder whose work awaits nothing reachable: its lock connection must not be garbage collected (and closed).
  it('a holder that dies (SIGKILL) leaves no lock behind', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const { withSqliteMigrationLock } = await import(${JSON.stringify(path.resolve(import.meta.dirname, '../../src/db/sqlite/migrationLock.ts'))})
         await withSqliteMigrationLock(${JSON.stringify(file)}, () => { console.log('held'); return new Promise(() => void setInterval(() => {}, 1000)) })`,
      ],
      { cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    try {
      await new Promise<void>((resolve) => child.stdout!.on('data', (c: Buffer) => c.toString().includes('held') && resolve()))
      // The child's work awaits a promise nothing refers to: give a collection the chance to run.
      await new Promise((r) => setTimeout(r, 1500))
      const from = app.logs.length
      let got = false
      const waiter = withSqliteMigrationLock(file, async () => void (got = true))
      await new Promise((r) => setTimeout(r, 300))
      expect(got).toBe(false)
      expect(app.logs.slice(from).find((l) => l.msg === 'migrations.waiting')?.holder).toMatchObject({ pid: child.pid })
      child.kill('SIGKILL')
      await waiter
      expect(got).toBe(true)
    } finally {
      child.kill('SIGKILL')
    }
  })
})
