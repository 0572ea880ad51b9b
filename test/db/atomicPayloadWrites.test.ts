/**
 * Payload's own writes are all-or-nothing, and a relationship to a document that does not
 * exist is the caller's mistake: 400 naming the field, never a 500 "FOREIGN KEY constraint
 * failed" after half the save (the user's role rows deleted, the new ones refused: the only
 * admin locked out). And Payload's saves queue behind each other and behind the service's own
 * writes instead of failing with SQLITE_BUSY.
 */
import Database from 'libsql'
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { connection, sqliteFileOf } from '../../src/db/sqlite/connection'
import { writesTo } from '../../src/db/sqlite/writes'
import { consoleCookie } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let adminCookie: string
let adminId: string
let adminToken: string
const MISSING = '65a1b2c3d4e5f60718293a4b'
// The failure injected half-way and the kept connection are SQLite's (a trigger, its write path);
// MongoDB's saves are one transaction each (test/db/mongoWirePayload.test.ts).
const sqlite = getConfig().database.engine === 'sqlite'

beforeAll(async () => {
  app = await testApp()
  adminCookie = await consoleCookie(app, 'admin@example.com', 'admin-password-123')
  const admin = (await app.payload.find({ collection: 'users', where: { email: { equals: 'admin@example.com' } }, depth: 0 })).docs[0]!
  adminId = String(admin.id)
  adminToken = (await app.request('POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: 'admin-password-123' } })).body.data.accessToken
})

const rolesOf = async (id: string) =>
  ((await app.payload.findByID({ collection: 'users', id, depth: 0, overrideAccess: true })).roles ?? []).map(String).sort()

describe('a relationship to a missing id', () => {
  it('Payload REST: 400 naming the field, and the user keeps every role', async () => {
    const before = await rolesOf(adminId)
    expect(before.length).toBeGreaterThan(0)
    const res = await app.request('PATCH', `/users/${adminId}`, { body: { roles: [...before, MISSING] }, headers: { cookie: adminCookie } })
    expect(res.status, res.text).toBe(400)
    expect(res.body.errors[0].data.errors).toEqual([expect.objectContaining({ path: 'roles' })])
    expect(res.body.errors[0].data.errors[0].message).toContain(MISSING)
    expect(await rolesOf(adminId)).toEqual(before)
  })

  it('the Local API: a ValidationError naming the field, nothing written', async () => {
    const facet = (await app.payload.find({ collection: 'facets', limit: 1 })).docs[0]!
    const tags = await app.payload.count({ collection: 'tags' })
    const err = await app.payload
      .create({ collection: 'tags', data: { slug: 'orphan', label: 'Orphan', facet: MISSING }, overrideAccess: true })
      .then(() => null, (e: unknown) => e)
    expect((err as Error)?.name).toBe('ValidationError')
    expect((err as { data?: { errors?: { path: string }[] } }).data?.errors?.[0]?.path).toBe('facet')
    expect(await app.payload.count({ collection: 'tags' })).toEqual(tags)
    // The same save with the facet that exists goes through.
    await app.payload.create({ collection: 'tags', data: { slug: 'orphan', label: 'Orphan', facet: facet.id }, overrideAccess: true })
  })

  it('/api/v1: 400 validation.failed naming the field', async () => {
    const res = await app.request('PATCH', `/v1/users/${adminId}`, { body: { roles: [MISSING] }, token: adminToken })
    expect(res.status, res.text).toBe(400)
    expect(res.body.error.code).toBe('validation.failed')
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: expect.stringMatching(/^roles(\.0)?$/) })])
    expect((await rolesOf(adminId)).length).toBeGreaterThan(0)
  })
})

describe.runIf(sqlite)('a save that fails half-way leaves the document exactly as before (SQLite: a trigger fails its relationship rows)', () => {
  it('the row is written, then its relationship rows fail: the row change is rolled back too', async () => {
    const roles = (await app.payload.find({ collection: 'roles', depth: 0, limit: 10 })).docs
    const member = roles.find((r) => r.name === 'member')!
    const moderator = roles.find((r) => r.name === 'moderator')!
    const user = await app.payload.create({
      collection: 'users',
      data: { email: 'half@example.com', username: 'half', password: 'half-password-123', roles: [member.id] },
      overrideAccess: true,
    })
    // A real database failure on the save's second statement (its relationship rows), as a
    // constraint would raise it: the row update (username) has run by then.
    const db = connection(sqliteFileOf(process.env.DATABASE_URI!))
    db.exec(`CREATE TRIGGER half_write BEFORE INSERT ON users_rels WHEN NEW.parent_id = '${user.id}' AND NEW.roles_id = '${moderator.id}'
             BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
    try {
      const err = await app.payload
        .update({ collection: 'users', id: user.id, data: { username: 'changed', roles: [member.id, moderator.id] }, overrideAccess: true })
        .then(() => null, (e: unknown) => e)
      expect(String(err)).toContain('insert into "users_rels"')
    } finally {
      db.exec('DROP TRIGGER half_write')
    }
    const after = await app.payload.findByID({ collection: 'users', id: user.id, depth: 0, overrideAccess: true })
    expect(after.username).toBe('half')
    expect(after.roles).toEqual([member.id])
  })
})

describe('concurrent saves', () => {
  it('16 admin-panel saves at once beside workflow writes: every one succeeds, no SQLITE_BUSY', async () => {
    const facet = (await app.payload.find({ collection: 'facets', limit: 1 })).docs[0]!
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        app.payload.create({ collection: 'tags', data: { slug: `busy-${i}`, label: `Busy ${i}`, facet: facet.id }, overrideAccess: true }),
      ),
    )
    const submitted = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        app.request('POST', '/v1/content/submit', { body: { title: `Concurrent ${i}`, url: `https://example.org/concurrent-${i}` }, token: adminToken }),
      ),
    )
    for (const s of submitted) expect(s.status, s.text).toBe(201)
    const saves = [
      ...created.map((tag, i) => app.request('PATCH', `/tags/${tag.id}`, { body: { label: `Busy ${i} renamed` }, headers: { cookie: adminCookie } })),
      ...created.map((_, i) =>
        app.request('POST', '/tags', { body: { slug: `busy-new-${i}`, label: `New ${i}`, facet: facet.id }, headers: { cookie: adminCookie } }),
      ),
    ]
    const workflow = [
      ...submitted.slice(0, 2).map((s) => app.request('POST', `/v1/content/${s.body.data.slug}/approve`, { body: {}, token: adminToken })),
      ...submitted.slice(2).map((s) => app.request('POST', `/v1/content/${s.body.data.slug}/reject`, { body: { reason: 'Not a fit' }, token: adminToken })),
      app.request('POST', '/v1/tags/busy-0/rename', { body: { newSlug: 'busy-zero' }, token: adminToken }),
    ]
    const results = await Promise.all([...saves, ...workflow])
    expect(saves).toHaveLength(16)
    for (const [i, r] of results.entries()) {
      expect(r.status, `${i}: ${r.text}`).toBeLessThan(300)
      expect(r.text).not.toMatch(/SQLITE_BUSY|database is locked/i)
    }
    expect(app.rawLogs.join('\n')).not.toMatch(/SQLITE_BUSY|database is locked/i)
    const renamed = await app.payload.find({ collection: 'tags', where: { slug: { like: 'busy-' } }, limit: 100, depth: 0 })
    expect(renamed.docs.filter((t) => / renamed$/.test(String(t.label)))).toHaveLength(8)
    expect(renamed.docs.filter((t) => String(t.slug).startsWith('busy-new-'))).toHaveLength(8)
    expect(renamed.docs.some((t) => t.slug === 'busy-zero')).toBe(true)
  })
})

describe('a write outside any transaction while a transaction is open', () => {
  it('waits for it instead of blocking the event loop into "database is locked"', async () => {
    const facet = (await app.payload.find({ collection: 'facets', limit: 1 })).docs[0]!
    const tag = await app.payload.create({ collection: 'tags', data: { slug: 'gate-wait', label: 'Gate wait', facet: facet.id }, overrideAccess: true })
    // An open Payload transaction that has written (it holds the write lock) and commits a moment later.
    const transactionID = (await app.payload.db.beginTransaction())!
    await app.payload.db.updateOne({ collection: 'tags', id: tag.id, data: { label: 'In the transaction' }, req: { transactionID } as never })
    // Committed by a timer: it can only run if the loop stays free while the write below waits.
    const order: string[] = []
    const committed = new Promise<void>((resolve) =>
      setTimeout(() => void app.payload.db.commitTransaction(transactionID).then(() => (order.push('committed'), resolve())), 200),
    )
    // The adapter's own write with no request: not part of that transaction.
    await app.payload.db.updateOne({ collection: 'tags', id: tag.id, data: { label: 'After it' } })
    order.push('written')
    await committed
    expect(order).toEqual(['committed', 'written'])
    expect((await app.payload.findByID({ collection: 'tags', id: tag.id, depth: 0 })).label).toBe('After it')
  })
})


describe.runIf(sqlite)('the connection Payload saves on is kept between saves (SQLite)', () => {
  it('a save after another connection changed the schema runs the schema as it is now', async () => {
    const facet = (await app.payload.find({ collection: 'facets', limit: 1 })).docs[0]!
    // A first save: the kept connection has read the schema and prepared the tag's statements.
    const tag = await app.payload.create({ collection: 'tags', data: { slug: 'schema-moved', label: 'Before', facet: facet.id }, overrideAccess: true })
    // Another connection changes the schema, as a bulk load re-creating the text index's triggers does.
    const other = connection(sqliteFileOf(process.env.DATABASE_URI!))
    // Under this process's write gate, as every writer of the process (src/db/sqlite/writes/).
    const writes = writesTo(sqliteFileOf(process.env.DATABASE_URI!))
    await writes.under(() =>
      other.exec(`CREATE TABLE schema_probe (tag TEXT);
        CREATE TRIGGER schema_probe_after_tag_update AFTER UPDATE ON tags BEGIN INSERT INTO schema_probe (tag) VALUES (NEW.slug); END;`),
    )
    try {
      await app.payload.update({ collection: 'tags', id: tag.id, data: { label: 'After' }, overrideAccess: true })
      // The new trigger ran inside the save: the kept connection did not save against the schema it had read before.
      expect(other.prepare('SELECT tag FROM schema_probe').all()).toEqual([{ tag: 'schema-moved' }])
      expect((await app.payload.findByID({ collection: 'tags', id: tag.id, depth: 0 })).label).toBe('After')
    } finally {
      await writes.under(() => other.exec('DROP TRIGGER schema_probe_after_tag_update; DROP TABLE schema_probe;'))
    }
  })
})

describe.runIf(sqlite)("a Payload transaction takes the file's write lock at its first statement (SQLite)", () => {
  /** Whether another connection could take the file's write lock now (it does not wait for it). */
  const lockFree = (): boolean => {
    const probe = new Database(sqliteFileOf(process.env.DATABASE_URI!))
    try {
      probe.exec('PRAGMA busy_timeout = 0')
      probe.exec('BEGIN IMMEDIATE')
      probe.exec('ROLLBACK')
      return true
    } catch (err) {
      if ((err as { code?: unknown }).code === 'SQLITE_BUSY') return false
      throw err
    } finally {
      probe.close()
    }
  }
  const newTag = async (slug: string) => {
    const facet = (await app.payload.find({ collection: 'facets', limit: 1 })).docs[0]!
    return app.payload.create({ collection: 'tags', data: { slug, label: 'Before', facet: facet.id }, overrideAccess: true })
  }
  const labelOf = async (id: string | number) => (await app.payload.findByID({ collection: 'tags', id, depth: 0 })).label

  it('holds nothing while the operation runs its own code; from its first statement until its commit, the lock', async () => {
    const tag = await newTag('lock-at-first-statement')
    const writes = writesTo(sqliteFileOf(process.env.DATABASE_URI!))
    const transactionID = (await app.payload.db.beginTransaction())!
    try {
      // Payload began its operation (access, hooks, an upload's file work come next): nobody waits
      // yet. Asked inside the process's write gate, past any other write of the app (on a busy
      // machine one held the lock at this moment); a transaction holding the gate would hang here.
      expect(await writes.under(lockFree)).toBe(true)
      await app.payload.db.updateOne({ collection: 'tags', id: tag.id, data: { label: 'In it' }, req: { transactionID } as never })
      expect(lockFree()).toBe(false)
    } finally {
      await app.payload.db.commitTransaction(transactionID)
    }
    expect(await writes.under(lockFree)).toBe(true)
    expect(await labelOf(tag.id)).toBe('In it')
  })

  it('an operation that asked for no statement commits and rolls back with nothing begun', async () => {
    const committed = (await app.payload.db.beginTransaction())!
    await app.payload.db.commitTransaction(committed)
    const rolledBack = (await app.payload.db.beginTransaction())!
    await app.payload.db.rollbackTransaction(rolledBack)
    expect(await writesTo(sqliteFileOf(process.env.DATABASE_URI!)).under(lockFree)).toBe(true)
    // The next save goes in at once.
    const tag = await newTag('nothing-begun')
    expect(await labelOf(tag.id)).toBe('Before')
  })

  it('rolled back while its first statement waits for the write gate: the statement never runs, and the begin is let go', async () => {
    const tag = await newTag('rolled-back-while-waiting')
    const writes = writesTo(sqliteFileOf(process.env.DATABASE_URI!))
    let letGo!: () => void
    // Another writer of this process holds the gate: its body runs once it has it, after any write
    // of the app still in it (on a busy machine one was, and letGo was not yet set).
    let held!: () => void
    const holds = new Promise<void>((resolve) => (held = resolve))
    const holding = writes.under(() => new Promise<void>((resolve) => {
      letGo = resolve
      held()
    }))
    await holds
    const transactionID = (await app.payload.db.beginTransaction())!
    const statement = app.payload.db.updateOne({ collection: 'tags', id: tag.id, data: { label: 'Never' }, req: { transactionID } as never })
    statement.catch(() => undefined)
    // Its promises settle within this turn: the statement now waits for the gate, in the transaction.
    await new Promise((resolve) => setImmediate(resolve))
    const rolledBack = app.payload.db.rollbackTransaction(transactionID)
    letGo()
    await holding
    await rolledBack
    await expect(statement).rejects.toThrow()
    expect(lockFree()).toBe(true)
    expect(await labelOf(tag.id)).toBe('Before')
    // The gate was let go: the next save goes in.
    await app.payload.update({ collection: 'tags', id: tag.id, data: { label: 'After' }, overrideAccess: true })
    expect(await labelOf(tag.id)).toBe('After')
  })
})
