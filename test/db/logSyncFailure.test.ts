/**
 * When the write-ahead log cannot be synced (src/db/sqlite/writes/walSync.ts: EIO, ENOSPC), a committed
 * write is not known to be durable. Payload's saves share one kept connection
 * (src/db/sqlite/writes/payloadWrites.ts) and the gate lets the next writer in before the sync is
 * awaited, so a failed sync must not reach back into the connection (a ROLLBACK there would end
 * the next writer's transaction), and no caller may be told "saved" for what may not be on disk.
 * A failed sync stops this process's writes until it is restarted: after one, Linux may have
 * dropped the pages it could not write, and a later sync that succeeds would not bring them back.
 */
import type { Client } from '@libsql/client'
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'

import { connection, sqliteFileOf } from '../../src/db/sqlite/connection'
import { DurabilityUnchecked, writesTo } from '../../src/db/sqlite/writes'
import { stopFollowUps } from '../../src/jobs/followUps'
import { getConfig } from '../../src/platform/config'
import { ADMIN, adminSession, consoleCookie, freshIp } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'
import { TSX } from '../support/tsxChild'

const sqlite = getConfig().database.engine === 'sqlite'

let app: TestApp
let file: string
/** This process's write path to the test's file: the one Payload's adapter and the engine write through. */
const writes = () => writesTo(file)

const client = () => (app.payload.db as unknown as { client: Client }).client
const rowsOf = (sql: string) => connection(file).prepare(sql).raw(true).all() as unknown[][]
const platformSlugs = () => rowsOf('SELECT slug FROM platforms ORDER BY slug').map(([slug]) => slug)
const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(done()).toBe(true)
}
const platform = (slug: string) => ({ slug, label: slug, color: '#000000', displayOrder: 0, isActive: true })
/** The answer to a write that committed but is not known to be on disk. */
const UNCONFIRMED = { status: 503, code: 'service.unavailable', details: { committed: true } }
/** The answer to a write refused before it began. */
const REFUSED = { status: 503, code: 'service.unavailable', details: undefined }

describe.runIf(sqlite)('a log sync that fails', () => {
  beforeAll(async () => {
    app = await testApp()
    file = sqliteFileOf(getConfig().database.uri)
    // Its polls are writes too, each with a sync: the counts below are this file's writes only.
    await stopFollowUps()
    await writes().under(() => connection(file).exec('CREATE TABLE IF NOT EXISTS raw_test_sync (n INTEGER)'))
  })
  afterEach(() => writes().gate.setDurability(() => writes().log.sync()))

  it("does not end the next writer's transaction, and no caller hears \"saved\": writes stop with 503 service.unavailable until a restart", async () => {
    // Sessions taken before the stop (a login is a write: its rate-limit counter).
    const admin = await adminSession(app)
    const cookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
    const youtube = await app.payload.create({ collection: 'platforms', data: platform('youtube'), overrideAccess: true })
    // The first save's sync fails once the second writer's transaction is open and has written.
    let failFirst!: (err: Error) => void
    let syncs = 0
    writes().gate.setDurability(() => {
      syncs += 1
      return syncs === 1 ? new Promise<void>((_, reject) => (failFirst = reject)) : writes().log.sync()
    })
    const first = app.payload.create({ collection: 'platforms', data: platform('first'), overrideAccess: true })
    const firstAnswer = first.then(
      () => 'saved',
      (err) => err,
    )
    await until(() => syncs === 1)
    const second = await client().transaction('write')
    await second.execute('INSERT INTO raw_test_sync (n) VALUES (2)')
    failFirst(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }))
    expect(await firstAnswer).toMatchObject(UNCONFIRMED)
    // The second writer's transaction is still its own: its commit lands, and is refused as not durable.
    await expect(second.commit()).rejects.toMatchObject(UNCONFIRMED)
    expect(rowsOf('SELECT n FROM raw_test_sync')).toEqual([[2]])
    // Both commits are in the file: what was committed is not half-undone.
    expect(platformSlugs()).toContain('first')

    // Until a restart, every write is refused before it begins, through every path.
    await expect(writes().under(() => connection(file).exec('INSERT INTO raw_test_sync (n) VALUES (3)'))).rejects.toMatchObject(REFUSED)
    await expect(app.payload.create({ collection: 'platforms', data: platform('third'), overrideAccess: true })).rejects.toMatchObject(REFUSED)
    const register = await app.request('POST', '/v1/auth/register', {
      body: { email: 'later@example.com', username: 'later', password: 'later-password-12' },
      headers: freshIp(),
    })
    const tag = await app.request('POST', '/v1/tags', { token: admin.accessToken, body: { label: 'Later', facet: 'topic' } })
    const console = await app.request('PATCH', `/platforms/${youtube.id}`, { headers: { cookie }, body: { label: 'Later' } })
    // An adapter write outside a transaction (the refresh family's revocation): drizzle wraps the refusal.
    const logout = await app.request('POST', '/v1/auth/logout', { token: admin.accessToken, body: { refreshToken: admin.refreshToken } })
    for (const answer of [register, tag, logout]) {
      expect(answer.status, answer.text).toBe(503)
      expect(answer.body.error.code).toBe('service.unavailable')
      expect(answer.headers.get('retry-after')).toBe('30')
    }
    expect(console.status, console.text).toBe(503)
    expect(rowsOf('SELECT n FROM raw_test_sync')).toEqual([[2]])
    expect(platformSlugs()).not.toContain('third')
    expect(rowsOf("SELECT count(*) FROM users WHERE email = 'later@example.com'")).toEqual([[0]])
    expect(rowsOf("SELECT count(*) FROM tags WHERE label = 'Later'")).toEqual([[0]])
    expect(rowsOf(`SELECT label FROM platforms WHERE id = '${youtube.id}'`)).toEqual([['youtube']])
    expect(rowsOf("SELECT count(*) FROM refresh_tokens WHERE revoked_at IS NOT NULL")).toEqual([[0]])
    // Liveness says so, so a supervisor restarts the process; the log names the cause once.
    const health = await app.request('GET', '/v1/health')
    expect(health.status).toBe(503)
    expect(health.body.error.code).toBe('service.unavailable')
    expect(app.logs.filter((l) => l.msg === 'db.log_sync_failed')).toHaveLength(1)
    // Reads go on.
    expect((await app.request('GET', '/v1/catalog')).status).toBe(200)
  })

  it('writes go on once a durability is registered again (what a restart does)', async () => {
    await writes().under(() => connection(file).exec('INSERT INTO raw_test_sync (n) VALUES (4)'))
    expect(rowsOf('SELECT n FROM raw_test_sync ORDER BY n')).toEqual([[2], [4]])
    expect((await app.request('GET', '/v1/health')).status).toBe(200)
  })

  it('a write whose sync began after a failed one is not answered as saved, though its sync succeeded', async () => {
    let failFirst!: (err: Error) => void
    let syncs = 0
    const firstSync = new Promise<void>((_, reject) => (failFirst = reject))
    // As ./walSync runs them: the next sync begins once the running one has ended, and succeeds.
    writes().gate.setDurability(() => {
      syncs += 1
      return syncs === 1 ? firstSync : firstSync.catch(() => undefined)
    })
    const a = writes().under(() => connection(file).exec('INSERT INTO raw_test_sync (n) VALUES (10)')).then(() => 'saved', (err: unknown) => err)
    await until(() => syncs === 1)
    const b = writes().under(() => connection(file).exec('INSERT INTO raw_test_sync (n) VALUES (11)')).then(() => 'saved', (err: unknown) => err)
    await until(() => syncs === 2)
    failFirst(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }))
    expect(await a).toMatchObject(UNCONFIRMED)
    expect(await b).toMatchObject(UNCONFIRMED)
    expect(writes().stopped).toBeDefined()
  })

  it('a Payload save whose log could not be opened to sync (out of descriptors) answers 503, and writes go on', async () => {
    let syncs = 0
    writes().gate.setDurability(() => {
      syncs += 1
      return syncs === 1 ? Promise.reject(new DurabilityUnchecked(Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }))) : writes().log.sync()
    })
    await expect(app.payload.create({ collection: 'platforms', data: platform('unchecked'), overrideAccess: true })).rejects.toMatchObject({
      ...UNCONFIRMED,
      headers: { 'Retry-After': '5' },
    })
    expect(platformSlugs()).toContain('unchecked')
    expect(writes().stopped).toBeUndefined()
    await app.payload.create({ collection: 'platforms', data: platform('after-unchecked'), overrideAccess: true })
    expect(platformSlugs()).toContain('after-unchecked')
    expect(app.logs.some((l) => l.msg === 'db.log_sync_unchecked' && l.level === 'warn')).toBe(true)
  })

  it('a listener of the gate that throws does not fail the write, skip the sync or the other listeners', async () => {
    const heard: string[] = []
    const stopThrowing = writes().gate.onReleased(() => {
      throw new Error('a listener failed')
    })
    const stopHearing = writes().gate.onReleased(() => heard.push('after'))
    try {
      const before = writes().log.done
      await writes().under(() => connection(file).exec('INSERT INTO raw_test_sync (n) VALUES (5)'))
      expect(writes().log.done).toBeGreaterThan(before)
      expect(heard).toEqual(['after'])
    } finally {
      stopThrowing()
      stopHearing()
    }
    expect(app.logs.some((l) => l.msg === 'db.write_gate.listener_failed' && l.level === 'error')).toBe(true)
  })

  it('a read-only transaction has nothing to sync', async () => {
    let syncs = 0
    writes().gate.setDurability(() => ((syncs += 1), writes().log.sync()))
    const tx = await client().transaction('read')
    await tx.execute('SELECT count(*) FROM raw_test_sync')
    await tx.commit()
    expect(syncs).toBe(0)
    await writes().under(() => connection(file).exec('INSERT INTO raw_test_sync (n) VALUES (6)'))
    expect(syncs).toBe(1)
  })

  it('the log stays open between syncs; a process out of file descriptors waits for one to open its log with; past the wait that write answers 503, and writes go on', async () => {
    // A process of its own under a low descriptor limit: this one's limit is not for a test to take.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'fd-shortage-')), 'short.db')
    const child = path.join(import.meta.dirname, '../support/fdShortageChild.ts')
    const { stdout } = await promisify(execFile)('bash', ['-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, ...TSX, child, file], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      // tsx's cache writes, begun at start-up, would let descriptors go while the child holds them all.
      env: { ...process.env, LOG_LEVEL: 'silent', TSX_DISABLE_CACHE: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    })
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!)
    expect(seen.taken).toBeGreaterThan(0)
    // The log opened by the first write is synced again with no descriptor to spare.
    expect(seen.kept).toBe('answered')
    expect(seen.first).toBe('answered')
    expect(seen.firstMs).toBeGreaterThanOrEqual(90)
    expect(seen.second).toEqual({ status: 503, code: 'service.unavailable', details: { committed: true }, retryAfter: '5' })
    expect(seen.stopped).toBe(false)
    expect(seen.third).toBe('answered')
    // Every write committed, the unconfirmed one included.
    expect(seen.rows).toEqual([[[0], [1]], [[1]], [[1], [2]]])
    // Each log opened once, never per write (the refused one at its second write, descriptors back).
    expect(seen.opened).toEqual([1, 1, 1])
  })
})
