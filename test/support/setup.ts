/**
 * Runs before each test file: a fresh database (a new SQLite file, or a new database on the
 * MongoDB server named by DATABASE_URI or DATABASE_HOST) and a known test environment.
 * After the file, its database is dropped.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'

const id = randomBytes(6).toString('hex')
const given = process.env.DATABASE_URI
if (given?.startsWith('mongodb') || process.env.DATABASE_HOST) {
  process.env.DB_NAME = `curation_test_${id}`
} else {
  const dir = path.join(os.tmpdir(), 'curation-tests')
  mkdirSync(dir, { recursive: true })
  process.env.DATABASE_URI = `file:${path.join(dir, `${id}.db`)}`
}

const defaults: Record<string, string> = {
  NODE_ENV: 'test',
  PAYLOAD_SECRET: 'test-payload-secret-0123456789abcdef',
  JWT_ACCESS_SECRET: 'test-access-secret-0123456789abcdef0123',
  JWT_REFRESH_SECRET: 'test-refresh-secret-0123456789abcdef012',
  CORS_ALLOWED_ORIGINS: 'chrome-extension://abcdefghijklmnop,http://localhost:5173',
  BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
  BOOTSTRAP_ADMIN_PASSWORD: 'admin-password-123',
  LOG_LEVEL: 'info',
  // argon2 at its lowest cost: no test here is about hashing cost (test/auth/passwordCost.test.ts
  // holds the standard one); a server a test starts with NODE_ENV=production ignores it.
  PASSWORD_HASH_COST: 'test',
}
for (const [k, v] of Object.entries(defaults)) process.env[k] ??= v

// Payload caches its instance on a global; a new file must not inherit the previous file's.
delete (globalThis as { _payload?: unknown })._payload

// The suite's database as set up here: a file may point DATABASE_URI elsewhere afterwards
// (test/db/mongoStore.test.ts names a server that does not exist), and only this one is dropped.
const suiteEnv = { ...process.env }

// Registered first, so it runs last (after hooks run in reverse): the file's own teardown
// (servers, browsers) is done before its database goes.
afterAll(async () => {
  const { parseConfig } = await import('../../src/platform/config')
  const { dropDatabase } = await import('./engineProbes')
  await dropDatabase(parseConfig(suiteEnv).database)
})
