import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { startServer } from './browser/support/server'
import { childEnv } from './support/childEnv'

const root = path.resolve(import.meta.dirname, '..')

function start(env: Pick<NodeJS.ProcessEnv, 'NODE_ENV'> & Record<string, string>) {
  const base = childEnv()
  // The compiled server, as `npm start` and the image run it (npm test builds first).
  return spawnSync(process.execPath, ['dist/server.js'], {
    cwd: root,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: 100_000,
  })
}

describe('production start-up', () => {
  it('refuses to start with one message naming every bad variable, printing no value', () => {
    const weak = 'weak-secret-value'
    const run = start({ NODE_ENV: 'production', JWT_ACCESS_SECRET: weak, JWT_REFRESH_SECRET: weak, PORT: '0x' })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('Invalid configuration:')
    expect(run.stderr).toContain('PORT:')
    expect(run.stderr).toContain('JWT_ACCESS_SECRET: must be at least 32 bytes')
    expect(run.stderr).toContain('JWT_REFRESH_SECRET: must be at least 32 bytes')
    expect(run.stderr).toContain('JWT_REFRESH_SECRET: must differ from JWT_ACCESS_SECRET')
    expect(run.stderr).toContain('PAYLOAD_SECRET: is required in production')
    expect(run.stderr + run.stdout).not.toContain(weak)
    expect(run.stderr + run.stdout).not.toContain('0x')
  })

  it('a start that cannot reach its database ends: each attempt one readable line naming the database without credentials, the primary one line after three, exit 1', () => {
    const password = 'never-printed-password-123'
    const run = start({
      NODE_ENV: 'production',
      PAYLOAD_SECRET: 'start-test-payload-secret-0123456789abcdef',
      JWT_ACCESS_SECRET: 'start-test-access-secret-0123456789abcdef012',
      JWT_REFRESH_SECRET: 'start-test-refresh-secret-0123456789abcdef01',
      // Nothing listens on port 9: every selection fails at once.
      DATABASE_URI: `mongodb://app:${password}@127.0.0.1:9/curation?replicaSet=rs0&serverSelectionTimeoutMS=300`,
      WEB_CONCURRENCY: '2',
      PORT: '3987',
      LOG_LEVEL: 'info',
    })
    expect(run.status).toBe(1)
    // JSON lines (Next prints a plain line of its own as it loads its config).
    const lines = run.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)
    const failed = lines.filter((l) => l.msg === 'server.start_failed')
    expect(failed).toHaveLength(3)
    for (const line of failed) {
      expect(line.database).toBe('mongodb://127.0.0.1:9/curation')
      expect(line.error).toMatch(/cannot connect to MongoDB/)
      // The error itself, readable: no "[unable to serialize, circular reference …]".
      expect((line.err as { message?: string }).message).toMatch(/cannot connect to MongoDB/)
    }
    const ended = lines.filter((l) => l.msg === 'cluster.start_failed')
    expect(ended).toHaveLength(1)
    expect(ended[0]).toMatchObject({ attempts: 3, database: 'mongodb://127.0.0.1:9/curation' })
    expect(run.stdout + run.stderr).not.toContain(password)
    expect(run.stdout).not.toContain('unable to serialize')
    // No stack trace dumped on stderr per attempt.
    expect(run.stderr).not.toMatch(/\n\s+at /)
  }, 120_000)

  it("a first start with the demo's settings, and the console's first page, print no warning or error: a first run shows nothing that looks wrong unless it is", async () => {
    const server = await startServer({
      SEED_DEMO: 'true',
      AUTH_ALLOW_SELF_REGISTRATION: 'true',
      CORS_ALLOWED_ORIGINS: 'http://localhost:5173',
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'info',
    })
    try {
      // The console's first page (Next's copy of the modules starts its own Payload instance).
      expect((await fetch(`${server.baseUrl}/admin/login`)).status).toBe(200)
    } finally {
      await server.stop()
    }
    const lines = server.logs.join('').split('\n').filter((l) => l.trim() !== '')
    const json = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: string; msg: string })
    expect(json.map((l) => l.msg)).toEqual(expect.arrayContaining(['seed.demo_loaded', 'server.listening', 'server.stopped']))
    expect(json.filter((l) => l.level !== 'info' && l.level !== 'debug').map((l) => `${l.level}: ${l.msg}`)).toEqual([])
    // Next's own plain lines ("✓ Running next.config.mjs took 31ms") and nothing else: no ⨯, no ⚠, no stack.
    expect(lines.filter((l) => !l.startsWith('{') && !/^✓ Running next\.config\.mjs took \d+ms$/.test(l.trim()))).toEqual([])
  }, 120_000)
})
