/**
 * Upgrading in place a database made by the release before migrations
 * (test/fixtures/release-sqlite.db: its schema pushed at start-up, demo seed and API use; see
 * test/fixtures/make-release-db.mjs). A real server process of this build starts on a copy:
 * the initial migration is recognised and recorded, the later ones run, every row is as it
 * was, the schema is the one a new database gets, and the server answers with the old data
 * (sign-in with an old password and an old refresh token, search over old rows, writes). A
 * pushed database that differs from the release's schema is refused and left unchanged.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { sqliteFileOf } from '../../src/db/sqlite/connection'
import { differencesFromInitial } from '../../src/db/sqlite/migrationBaseline'
import { SQLITE_MIGRATIONS } from '../../src/db/sqlite/migrate'
import { startServer, type ServerProcess } from '../ops/support/serverProcess'
import { testApp } from '../support/app'

const sqlite = getConfig().database.engine === 'sqlite'
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/release-sqlite.db')
const facts = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/release-sqlite.json'), 'utf8')) as {
  member: { email: string; password: string; refreshToken: string }
  admin: { email: string; password: string }
  content: { approved: string; rejected: string; pending: string }
  tag: string
  secrets: Record<string, string>
}

/** The tables whose rows must come through the upgrade unchanged. */
const KEPT = [
  'users', 'users_rels', 'roles', 'roles_permissions', 'refresh_tokens', 'facets', 'surfaces', 'groups', 'channels',
  'platforms', 'tags', 'content', 'notifications', 'moderation_events', 'media', 'raw_follow_ups', 'raw_rate_limits',
  'raw_versions', 'raw_content_tags',
]

const dir = mkdtempSync(path.join(os.tmpdir(), 'upgrade-'))
const servers: ServerProcess[] = []

afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

function rowsOf(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true })
  try {
    // Rowids too where there are any (the text index refers to content's); WITHOUT ROWID tables by key.
    const withoutRowid = (t: string) => /WITHOUT ROWID\s*$/i.test(String((db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(t) as { sql: string }).sql))
    const rows = (t: string) =>
      db.prepare(withoutRowid(t) ? `SELECT * FROM "${t}" ORDER BY 1, 2` : `SELECT rowid AS _rowid, * FROM "${t}" ORDER BY rowid`).all()
    return Object.fromEntries(KEPT.map((t) => [t, rows(t)]))
  } finally {
    db.close()
  }
}

/** Every table, index and trigger with its columns (names, types, keys): what a schema is. */
function schemaOf(file: string): Record<string, unknown> {
  const db = new Database(file, { readonly: true })
  try {
    const objects = db
      .prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
      .all() as { type: string; name: string; tbl_name: string }[]
    const columns = Object.fromEntries(
      objects
        .filter((o) => o.type === 'table')
        .map((o) => [o.name, db.prepare(`PRAGMA table_info("${o.name}")`).all()]),
    )
    return { objects, columns }
  } finally {
    db.close()
  }
}

function fixtureCopy(name: string): string {
  const file = path.join(dir, name)
  copyFileSync(FIXTURE, file)
  return file
}

async function call(server: ServerProcess, method: string, urlPath: string, body?: unknown, token?: string) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}

/**
 * A server on `file`, once its start-up lines are all in: `listening` can be read before the last
 * of them (a clean-clone run found no migrations line at that moment, once in ten runs);
 * `service.started` comes after the migrations' lines, from the same logger.
 */
const start = (file: string) =>
  startServer({ DATABASE_URI: `file:${file}`, ...facts.secrets, BOOTSTRAP_ADMIN_EMAIL: facts.admin.email }).then(async (s) => {
    servers.push(s)
    await s.waitForLine((l) => l.msg === 'service.started', 30_000)
    return s
  })

describe.runIf(sqlite)('a SQLite database made by the release before migrations', () => {
  let file: string
  let before: Record<string, unknown[]>
  let server: ServerProcess

  beforeAll(async () => {
    file = fixtureCopy('release.db')
    before = rowsOf(file)
    server = await start(file)
  }, 180_000)

  it('is recognised: the initial migration is recorded without running, the later ones run', async () => {
    const db = new Database(file, { readonly: true })
    const records = db.prepare('SELECT name, batch FROM payload_migrations ORDER BY name').all()
    db.close()
    const [initial, ...later] = SQLITE_MIGRATIONS.map((m) => m.name)
    expect(records).toEqual([{ name: initial, batch: 1 }, ...later.map((name) => ({ name, batch: 2 }))])
    const msgs = server.lines.map((l) => l.msg)
    expect(server.lines.find((l) => l.msg === 'migrations.baseline_recorded')).toMatchObject({ migration: initial })
    expect(server.lines.find((l) => l.msg === 'migrations.applied')).toMatchObject({ applied: later })
    expect(msgs).not.toContain(`Migrating: ${initial}`)
  })

  it('keeps every row of users, roles, tokens, taxonomy, content, tags, events, the outbox and the counters', () => {
    const after = rowsOf(file)
    // The counters gain all_content (20261127_110000_public_content_version) and access
    // (20261128_200642_access_standing); the others are kept.
    const added = (after.raw_versions as { name: string }[]).filter((r) => r.name === 'all_content' || r.name === 'access')
    expect(added.map((r) => r.name).sort()).toEqual(['access', 'all_content'])
    after.raw_versions = (after.raw_versions as { name: string }[]).filter((r) => r.name !== 'all_content' && r.name !== 'access')
    for (const table of KEPT) {
      // Every old value kept; a column a later migration adds holds null on the old rows.
      const columns = Object.keys((before[table] as Record<string, unknown>[])[0] ?? {})
      const rows = (after[table] as Record<string, unknown>[]).map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])))
      const added = (after[table] as Record<string, unknown>[]).flatMap((r) => Object.entries(r).filter(([c, v]) => !columns.includes(c) && v !== null))
      expect({ table, rows, added }).toEqual({ table, rows: before[table], added: [] })
    }
    expect((before.content as unknown[]).length).toBeGreaterThan(300)
    expect((before.raw_follow_ups as unknown[]).length).toBe(3)
  })

  it('ends with the schema a new database gets from the migrations, and without the push record', async () => {
    await testApp() // this file's own database: new, migrated
    const fresh = schemaOf(sqliteFileOf(getConfig().database.uri))
    const upgraded = schemaOf(file)
    expect(upgraded).toEqual(fresh)
    expect(JSON.stringify(upgraded)).not.toContain('raw_schema_sync')
  })

  it('answers with the old data: old password, old refresh token, search over old rows, an old tag', async () => {
    const login = await call(server, 'POST', '/auth/login', { email: facts.member.email, password: facts.member.password })
    expect(login.status).toBe(200)
    const refreshed = await call(server, 'POST', '/auth/refresh', { refreshToken: facts.member.refreshToken })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.data.refreshToken).not.toBe(facts.member.refreshToken)
    const found = await call(server, 'GET', '/content?q=quokka')
    expect(found.status).toBe(200)
    expect(found.body.data.map((c: { slug: string }) => c.slug)).toEqual([facts.content.approved])
    expect((await call(server, 'GET', `/content/${facts.content.approved}`)).status).toBe(200)
    expect((await call(server, 'GET', `/tags/${facts.tag}`)).status).toBe(200)
  })

  it('writes as before: the pending item approved, found by search, its follow-ups queued in the old outbox', async () => {
    const admin = await call(server, 'POST', '/auth/login', { email: facts.admin.email, password: facts.admin.password })
    expect(admin.status).toBe(200)
    const approved = await call(server, 'POST', `/content/${facts.content.pending}/approve`, undefined, admin.body.data.accessToken)
    expect(approved.status).toBe(200)
    const found = await call(server, 'GET', '/content?q=quokka&sort=oldest')
    expect(found.body.data.map((c: { slug: string }) => c.slug)).toEqual([facts.content.approved, facts.content.pending])
    const db = new Database(file, { readonly: true })
    const kinds = db.prepare('SELECT kind FROM raw_follow_ups WHERE content_id = ? ORDER BY kind').all(approved.body.data.id)
    db.close()
    expect(kinds).toEqual([{ kind: 'notify.approved' }, { kind: 'thumbnail' }])
  })

  it('a restart of the upgraded database runs nothing', async () => {
    server.child.kill('SIGTERM')
    expect(await server.exited).toEqual({ code: 0, signal: null })
    const again = await start(file)
    const migrationLines = again.lines.filter((l) => String(l.msg).startsWith('migrations.')).map((l) => l.msg)
    expect(again.lines.find((l) => l.msg === 'migrations.up_to_date'), `its migration lines: ${migrationLines.join(', ')}`).toMatchObject({ migrations: SQLITE_MIGRATIONS.length })
    expect(again.lines.some((l) => l.msg === 'migrations.applying' || l.msg === 'migrations.baseline_recorded')).toBe(false)
    again.child.kill('SIGTERM')
    await again.exited
  }, 120_000)
})

describe.runIf(sqlite)('a pushed SQLite database whose schema is not the release\'s', () => {
  it('differences are named: a missing column, an extra table', async () => {
    const file = fixtureCopy('older.db')
    const db = new Database(file)
    expect(await differencesFromInitial(db, SQLITE_MIGRATIONS[0]!)).toEqual([])
    db.exec('ALTER TABLE content DROP COLUMN thumbnail_url')
    db.exec('CREATE TABLE payload_jobs (id integer PRIMARY KEY, input text)')
    const differences = await differencesFromInitial(db, SQLITE_MIGRATIONS[0]!)
    db.close()
    expect(differences).toEqual([
      expect.stringMatching(/^table content: columns are .*, expected .*"thumbnail_url"/),
      'table payload_jobs is not in the schema',
    ])
  })

  it('stops the start with them, and changes nothing', async () => {
    const file = fixtureCopy('refused.db')
    const db = new Database(file)
    db.exec('CREATE TABLE payload_jobs (id integer PRIMARY KEY, input text)')
    db.close()
    const before = schemaOf(file)
    const err = await start(file).then(() => null, (e: unknown) => e)
    expect(String((err as Error)?.message)).toMatch(/^server exited \(1\) before listening: SchemaMismatch: [^]*\n  table payload_jobs is not in the schema\n/)
    const after = schemaOf(file)
    expect(after).toEqual(before)
    const check = new Database(file, { readonly: true })
    expect(check.prepare('SELECT count(*) AS n FROM payload_migrations').get()).toEqual({ n: 0 })
    check.close()
  }, 120_000)
})

describe.runIf(sqlite)('a SQLite release database holding a slug twice across tags, content and surfaces', () => {
  let file: string
  let server: ServerProcess
  let itemId: string
  let tagId: string

  beforeAll(async () => {
    file = fixtureCopy('collisions.db')
    const db = new Database(file)
    // An item with a tag's slug, one with a surface's, and a tag with a surface's: what the
    // release let through (slugs were unique per collection only).
    itemId = (db.prepare('SELECT id FROM content WHERE slug = ?').get(facts.content.approved) as { id: string }).id
    db.prepare('UPDATE content SET slug = ? WHERE id = ?').run('academic', itemId)
    db.prepare('UPDATE content SET slug = ? WHERE slug = ?').run('learn', facts.content.rejected)
    tagId = (db.prepare("SELECT id FROM tags WHERE slug = 'accessibility'").get() as { id: string }).id
    db.prepare('UPDATE tags SET slug = ? WHERE id = ?').run('discover', tagId)
    db.close()
    server = await start(file)
  }, 180_000)

  it('starts, reporting each collision and how it was resolved', async () => {
    const line = server.lines.find((l) => l.msg === 'migrations.slug_collisions')
    expect(line?.level).toBe('warn')
    expect(line?.collisions).toEqual(
      expect.arrayContaining([
        { slug: 'discover', kept: 'surface', entity: 'tag', id: tagId, resolution: 'left unclaimed: rename the tag' },
        { slug: 'academic', kept: 'tag', entity: 'content', id: itemId, resolution: 'renamed to academic-2' },
        expect.objectContaining({ slug: 'learn', kept: 'surface', entity: 'content', resolution: 'renamed to learn-2' }),
      ]),
    )
    expect(line?.collisions).toHaveLength(3)
  })

  it('every other holder claims its slug once; the renamed items are served under their new slugs', async () => {
    const db = new Database(file, { readonly: true })
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n
    expect(count('SELECT count(*) AS n FROM slug_claims')).toBe(
      count('SELECT count(*) AS n FROM content') + count('SELECT count(*) AS n FROM tags') - 1 + count('SELECT count(*) AS n FROM surfaces'),
    )
    expect(count("SELECT count(*) AS n FROM slug_claims GROUP BY slug ORDER BY n DESC LIMIT 1")).toBe(1)
    expect(db.prepare("SELECT slug FROM content WHERE id = ?").get(itemId)).toEqual({ slug: 'academic-2' })
    db.close()
    expect((await call(server, 'GET', '/content/academic-2')).status).toBe(200)
  })

  it('from then on one slug, one holder: a submission with the surface’s slug is 409 naming the surface', async () => {
    const login = await call(server, 'POST', '/auth/login', { email: facts.member.email, password: facts.member.password })
    const answer = await call(server, 'POST', '/content/submit', { title: 'Discover', url: 'https://example.com/discover-again', slug: 'discover' }, login.body.data.accessToken)
    expect(answer.status).toBe(409)
    expect(answer.body.error).toMatchObject({ code: 'slug.conflict', details: { slug: 'discover', entity: 'surface' } })
  })
})
