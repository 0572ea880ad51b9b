/**
 * Runs before each test file: a fresh database (a new SQLite file, or a new database on the
 * MongoDB server named by DATABASE_URI or DATABASE_HOST) and a known test environment.
 * After the file, its database is dropped.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Payload } from 'payload'
import { afterAll, vi } from 'vitest'

import { resolvePackageImportsQuickly } from '../../src/platform/packageImports'

// The worker loads Payload's packages as the server does (src/platform/packageImports; once a process).
resolvePackageImportsQuickly()

// Files share a worker process (vitest.config.ts: isolate false), so Payload and the other
// packages load once per worker: this file's own modules are evaluated afresh (their
// module-level state is this file's) and the environment is the worker's as it started.
vi.resetModules()
const startEnv = (globalThis as { __suiteStartEnv?: NodeJS.ProcessEnv }).__suiteStartEnv ??= { ...process.env }
for (const k of Object.keys(process.env)) if (!(k in startEnv)) delete process.env[k]
Object.assign(process.env, startEnv)

const id = randomBytes(6).toString('hex')
const given = process.env.DATABASE_URI
if (given?.startsWith('mongodb') || process.env.DATABASE_HOST) {
  process.env.DB_NAME = `curation_test_${id}`
} else {
  const dir = path.join(os.tmpdir(), 'curation-tests')
  mkdirSync(dir, { recursive: true })
  process.env.DATABASE_URI = `file:${path.join(dir, `${id}.db`)}`
}

// Uploaded files too: a file's uploads (and its listing of them) are its own, whatever runs beside it.
const mediaDir = path.join(os.tmpdir(), 'curation-tests', `${id}-media`)
process.env.MEDIA_DIR = mediaDir

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

// Payload caches its instances in a Map on a global, captured when its module loaded: a new file
// must not inherit the previous file's (emptied, not deleted: the loaded module holds the Map).
const cachedPayloads = (globalThis as { _payload?: unknown })._payload
if (cachedPayloads instanceof Map) cachedPayloads.clear()
else delete (globalThis as { _payload?: unknown })._payload

type CachedPayload = { payload?: Payload | null }

/** Shuts down every Payload this file started (its timers, its runner, its connections): the next file in this process must not find them running. */
async function closePayloads(): Promise<void> {
  const cached = (globalThis as { _payload?: unknown })._payload
  if (!(cached instanceof Map)) return
  const started = [...cached.values()].map((entry: CachedPayload) => entry.payload).filter((p): p is Payload => !!p)
  cached.clear()
  if (started.length === 0) return
  const { stopFollowUps } = await import('../../src/jobs/followUps')
  const { closeDatabase } = await import('../../src/db/engine')
  await stopFollowUps()
  for (const payload of started) await closeDatabase(payload)
}

// The suite's database as set up here: a file may point DATABASE_URI elsewhere afterwards
// (test/db/mongoStore.test.ts names a server that does not exist), and only this one is dropped.
const suiteEnv = { ...process.env }

// Registered first, so it runs last (after hooks run in reverse): the file's own teardown
// (servers, browsers) is done before its database goes.
afterAll(async () => {
  // A file that moved the clock (./clock.ts) leaves the next one the real one.
  vi.useRealTimers()
  await closePayloads()
  // prom-client's registry is the loaded package's: the next file's modules register their metrics again.
  const { register } = await import('prom-client')
  register.clear()
  const { parseConfig } = await import('../../src/platform/config')
  const { dropDatabase } = await import('./engineProbes')
  await dropDatabase(parseConfig(suiteEnv).database)
  rmSync(mediaDir, { recursive: true, force: true })
})
