/**
 * Three server processes started at once on one empty SQLite file (before migrations, two
 * of them crashed: "table channels already exists", then a second bootstrap admin). The test
 * holds the migration lock itself while they start, so all three are sure to meet it; once it
 * lets go, one process migrates and bootstraps while the others wait, and they take the lock
 * only after that one released it, then find nothing to do. All three serve; there is one
 * admin and one of each seeded role and starting facet.
 */
import Database from 'libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { SEEDED_ROLES } from '../../src/auth/permissions'
import { getConfig } from '../../src/platform/config'
import { sqliteFileOf } from '../../src/db/sqlite/connection'
import { withSqliteMigrationLock } from '../../src/db/sqlite/migrationLock'
import { SQLITE_MIGRATIONS } from '../../src/db/sqlite/migrate'
import { STARTING_FACETS } from '../../src/startup/startingFacets'
import { launchServer, type ServerProcess } from './support/serverProcess'

const onMongo = getConfig().database.engine === 'mongodb'

const line = (s: ServerProcess, msg: string) => s.lines.find((l) => l.msg === msg)
const at = (l: Record<string, any> | undefined) => Date.parse(String(l?.ts))

describe.skipIf(onMongo)('three processes started together on an empty SQLite database', () => {
  let servers: (ServerProcess & { listening: Promise<void> })[] = []
  let file: string

  beforeAll(async () => {
    file = sqliteFileOf(getConfig().database.uri)
    let release!: () => void
    const holding = withSqliteMigrationLock(file, () => new Promise<void>((resolve) => (release = resolve)))
    servers = await Promise.all([0, 1, 2].map(() => launchServer({})))
    // Each reaches the lock and says it waits for this process.
    for (let waited = 0; waited < 150_000; waited += 200) {
      if (servers.every((s) => s.lines.some((l) => l.msg === 'migrations.waiting' && l.holder?.pid === process.pid))) break
      if (servers.some((s) => s.child.exitCode !== null)) break
      await new Promise((r) => setTimeout(r, 200))
    }
    release()
    await holding
    await Promise.all(servers.map((s) => s.listening))
  }, 240_000)

  afterAll(() => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL')
  })

  it('all three met the lock while another process held it', () => {
    for (const s of servers) {
      expect(s.lines.find((l) => l.msg === 'migrations.waiting')).toMatchObject({ holder: { pid: process.pid, host: expect.any(String) } })
    }
  })

  it('all three are up and ready', async () => {
    for (const s of servers) {
      expect(line(s, 'service.started')).toBeDefined()
      expect((await fetch(`http://127.0.0.1:${s.port}/api/v1/ready`)).status).toBe(200)
    }
  })

  it('exactly one migrated and bootstrapped; the others took the lock after it let go and found nothing pending', () => {
    const migrators = servers.filter((s) => line(s, 'migrations.applied'))
    expect(migrators).toHaveLength(1)
    const migrator = migrators[0]!
    expect(line(migrator, 'migrations.applied')).toMatchObject({ applied: SQLITE_MIGRATIONS.map((m) => m.name) })
    expect(line(migrator, 'bootstrap.admin_created')).toBeDefined()
    const released = at(line(migrator, 'migrations.lock_released'))
    for (const other of servers.filter((s) => s !== migrator)) {
      expect(line(other, 'migrations.up_to_date')).toMatchObject({ migrations: SQLITE_MIGRATIONS.length })
      expect(line(other, 'migrations.applying')).toBeUndefined()
      expect(line(other, 'bootstrap.admin_created')).toBeUndefined()
      expect(at(line(other, 'migrations.lock_acquired'))).toBeGreaterThanOrEqual(released)
    }
  })

  it('the database has one admin, one of each seeded role and starting facet, each migration recorded once', () => {
    const db = new Database(file, { readonly: true })
    try {
      const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n
      expect(count('SELECT count(*) AS n FROM users')).toBe(1)
      expect(db.prepare('SELECT email, username FROM users').get()).toEqual({ email: 'admin@example.com', username: 'admin' })
      expect(db.prepare('SELECT name, count(*) AS n FROM roles GROUP BY name ORDER BY name').all()).toEqual(
        SEEDED_ROLES.map((r) => ({ name: r.name, n: 1 })).sort((a, b) => a.name.localeCompare(b.name)),
      )
      expect(count('SELECT count(*) AS n FROM facets')).toBe(STARTING_FACETS.length)
      expect(count('SELECT count(DISTINCT key) AS n FROM facets')).toBe(STARTING_FACETS.length)
      expect(db.prepare('SELECT name, batch FROM payload_migrations ORDER BY name').all()).toEqual(
        SQLITE_MIGRATIONS.map((m) => ({ name: m.name, batch: 1 })),
      )
    } finally {
      db.close()
    }
  })
})
