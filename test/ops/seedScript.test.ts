/**
 * `npm run seed -- --content N` on a fresh SQLite file: the items are there, and the script
 * leaves no write-ahead log behind (it closes its connections, so SQLite checkpoints the log into
 * the file: a million items used to leave a 1.7 GB log that every reader of the file then searched
 * page by page).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import Database from 'libsql'
import { afterAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { childEnv } from '../support/childEnv'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(path.join(os.tmpdir(), 'seed-test-'))
const file = path.join(dir, 'seeded.db')

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.skipIf(getConfig().database.engine !== 'sqlite')('npm run seed -- --content N (SQLite)', () => {
  it('loads the items and leaves the write-ahead log checkpointed into the file', async () => {
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: 'test',
      ...childEnv(),
      DATABASE_URI: `file:${file}`,
      PAYLOAD_SECRET: 'seed-test-payload-secret-0123456789abcdef',
      JWT_ACCESS_SECRET: 'seed-test-access-secret-0123456789abcdef0123',
      JWT_REFRESH_SECRET: 'seed-test-refresh-secret-0123456789abcdef012',
      BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'admin-password-123',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    }
    const out = await run(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'seed.ts'), '--content', '3000'], { cwd: root, env })
    // Its report line, among the log lines it flushes on exit.
    const lines = out.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.find((l) => l.msg === 'seed.done')).toMatchObject({ content: 3000 })

    const wal = `${file}-wal`
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0)
    const db = new Database(file, { readonly: true })
    try {
      const one = (sql: string) => (db.prepare(sql).raw(true).get() as unknown[])[0]
      expect(one('PRAGMA journal_mode')).toBe('wal')
      expect(Number(one("SELECT count(*) FROM content WHERE status = 'approved'"))).toBe(3000)
      expect(Number(one('SELECT count(*) FROM raw_content_fts'))).toBe(3000)
    } finally {
      db.close()
    }
  }, 180_000)
})
