/**
 * Backups of the SQLite database with writes in flight: a real server process takes
 * submissions in a loop while `npm run backup` copies the file. The copy must open, pass
 * integrity_check, and hold a consistent prefix of the writes: every row with its text-index
 * and tag rows, every submission acknowledged before the backup began, none acknowledged
 * after it ended, no gaps. Restore is refused while the server runs, then puts the copy back;
 * the server started on it serves exactly the backup's data.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import Database from 'libsql'
import { afterAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { childEnv } from '../support/childEnv'
import { startServer, type ServerProcess } from './support/serverProcess'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(path.join(os.tmpdir(), 'backup-test-'))
const live = (process.env.DATABASE_URI ?? '').replace(/^file:/, '')
const SERVER_ENV = { RATE_LIMIT_SUBMIT: '100000/60' }
const scriptEnv: NodeJS.ProcessEnv = {
  NODE_ENV: 'test',
  ...childEnv(),
  DATABASE_URI: process.env.DATABASE_URI ?? '',
  PAYLOAD_SECRET: 'ops-test-payload-secret-0123456789abcdef',
  JWT_ACCESS_SECRET: 'ops-test-access-secret-0123456789abcdef0123',
  JWT_REFRESH_SECRET: 'ops-test-refresh-secret-0123456789abcdef012',
  BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
  BOOTSTRAP_ADMIN_PASSWORD: 'admin-password-123',
  LOG_LEVEL: 'warn',
}
/** What `npm run <name>` runs: backup and restore compiled by `npm run build` (dist/scripts), the seed from source. */
const argvOf = (name: string) =>
  name === 'seed.ts' ? ['--import', 'tsx', path.join(root, 'scripts', name)] : [path.join(root, 'dist', 'scripts', name.replace(/\.ts$/, '.js'))]
const script = (name: string, ...args: string[]) =>
  run(process.execPath, [...argvOf(name), ...args], { cwd: root, env: scriptEnv }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  )

let server: ServerProcess | undefined
afterAll(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

function inspect(file: string) {
  const db = new Database(file, { readonly: true })
  try {
    const one = (sql: string) => (db.prepare(sql).raw(true).get() as unknown[])[0]
    return {
      integrity: one('PRAGMA integrity_check'),
      content: Number(one('SELECT count(*) FROM content')),
      fts: Number(one('SELECT (SELECT count(*) FROM raw_content_fts) + (SELECT count(*) FROM raw_content_fts_hidden)')),
      // Rows whose tag side-table rows match their tag list (the triggers' work, in the same transaction).
      tagsConsistent: Number(
        one(`SELECT count(*) FROM content c WHERE (SELECT count(*) FROM raw_content_tags t WHERE t.content_rowid = c.rowid)
               = (SELECT count(DISTINCT j.value) FROM json_each(CASE WHEN json_valid(c.tag_slugs) THEN c.tag_slugs ELSE '[]' END) j WHERE j.type = 'text')`),
      ),
      titles: new Set((db.prepare("SELECT title FROM content WHERE title LIKE 'Backup write %'").raw(true).all() as unknown[][]).map((r) => String(r[0]))),
      ids: (db.prepare('SELECT id FROM content ORDER BY id').raw(true).all() as unknown[][]).map((r) => String(r[0])),
    }
  } finally {
    db.close()
  }
}

// MongoDB deployments back up with mongodump/mongorestore (docs/operations.md, "Backups").
const onMongo = getConfig().database.engine !== 'sqlite'

describe.skipIf(onMongo)('npm run backup / npm run restore (SQLite)', () => {
  it('backs up a consistent prefix while submissions are written, refuses to restore under a running server, restores when stopped', async () => {
    // A database big enough that the copy takes a while: the writes overlap it.
    const seeded = await script('seed.ts', '--tags', '50', '--content', '20000')
    expect(seeded.code, seeded.stderr).toBe(0)

    server = await startServer(SERVER_ENV)
    const base = `http://127.0.0.1:${server.port}/api/v1`
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'admin-password-123' }),
    })
    expect(login.status).toBe(200)
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data

    // The writer: one submission after another until told to stop; acknowledged titles in order.
    const acknowledged: string[] = []
    let writing = true
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const title = `Backup write ${n}`
        const res = await fetch(`${base}/content/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
          body: JSON.stringify({ title, url: `https://backup.example.com/${n}` }),
        })
        if (res.status !== 201) throw new Error(`submission ${n}: ${res.status} ${await res.text()}`)
        acknowledged.push(title)
      }
    })()
    let failure: unknown
    writer.catch((err: unknown) => (failure = err))
    const waitFor = async (n: number) => {
      while (acknowledged.length < n) {
        if (failure) throw failure
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    await waitFor(5)

    const backupFile = path.join(dir, 'copy.db')
    const before = acknowledged.length
    const backup = await script('backup.ts', backupFile)
    const after = acknowledged.length
    // Keep writing a little past the backup, then stop.
    await waitFor(after + 5)
    writing = false
    await writer
    expect(backup.code, backup.stderr).toBe(0)
    expect(JSON.parse(backup.stdout.trim().split('\n').pop()!)).toMatchObject({ msg: 'backup.done', file: backupFile })
    expect(after).toBeGreaterThan(before) // writes really were in flight during the copy

    const copy = inspect(backupFile)
    expect(copy.integrity).toBe('ok')
    // Consistent: every row has its text-index row (public or hidden) and its tag rows.
    expect(copy.fts).toBe(copy.content)
    expect(copy.tagsConsistent).toBe(copy.content)
    // A prefix of the acknowledged writes: all acknowledged before it began, none after it ended, no gaps.
    const inCopy = copy.titles.size
    expect(inCopy).toBeGreaterThanOrEqual(before)
    expect(inCopy).toBeLessThanOrEqual(after + 1)
    expect([...copy.titles].sort()).toEqual(acknowledged.slice(0, inCopy).sort())
    expect(copy.content).toBe(20000 + inCopy)

    // The live database has the later writes; the copy does not.
    expect(acknowledged.length).toBeGreaterThan(inCopy)

    // The live database has every acknowledged write (read through the server: this process
    // opens the live file only after the restore, which needs it closed).
    const mineBefore = await fetch(`${base}/auth/me/submissions?limit=1`, { headers: { authorization: `Bearer ${accessToken}` } })
    expect(((await mineBefore.json()) as { pagination: { total: number } }).pagination.total).toBe(20000 + acknowledged.length)

    // Restore while the server runs: refused, nothing replaced.
    const refused = await script('restore.ts', backupFile)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/in use \(is the server running\?\)/)

    // A file that is not a backup: refused before anything is touched.
    const junk = path.join(dir, 'junk.db')
    writeFileSync(junk, 'not a database at all, just text '.repeat(200))
    server.child.kill('SIGTERM')
    expect((await server.exited).code).toBe(0)
    const notDb = await script('restore.ts', junk)
    expect(notDb.code).toBe(1)
    expect(notDb.stderr).toMatch(/not a SQLite database/)
    const empty = path.join(dir, 'empty.db')
    new Database(empty).exec('CREATE TABLE other (x)')
    const wrongTables = await script('restore.ts', empty)
    expect(wrongTables.code).toBe(1)
    expect(wrongTables.stderr).toMatch(/missing tables: content/)

    // Stopped: restore puts the copy back, with no stale -wal/-shm left beside it.
    const restored = await script('restore.ts', backupFile)
    expect(restored.code, restored.stderr).toBe(0)
    expect(existsSync(`${live}-wal`)).toBe(false)
    expect(existsSync(`${live}-shm`)).toBe(false)
    expect(inspect(live).ids).toEqual(copy.ids)

    // The server started on it serves the backup's data: the later submissions are gone.
    server = await startServer(SERVER_ENV)
    const base2 = `http://127.0.0.1:${server.port}/api/v1`
    const list = await fetch(`${base2}/content?limit=1`)
    expect(list.status).toBe(200)
    expect(((await list.json()) as { pagination: { total: number } }).pagination.total).toBe(20000)
    const relogin = await fetch(`${base2}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'admin-password-123' }),
    })
    const token2 = ((await relogin.json()) as { data: { accessToken: string } }).data.accessToken
    const mine = await fetch(`${base2}/auth/me/submissions?limit=100`, { headers: { authorization: `Bearer ${token2}` } })
    expect(mine.status).toBe(200)
    const body = (await mine.json()) as { data: { title: string }[]; pagination: { total: number } }
    expect(body.pagination.total).toBe(20000 + inCopy) // the seed's items are the admin's too
    server.child.kill('SIGTERM')
    expect((await server.exited).code).toBe(0)
    expect(inspect(live).ids).toEqual(copy.ids)
  }, 240_000)
})
