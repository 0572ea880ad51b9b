import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { childEnv } from './support/childEnv'

const root = path.resolve(import.meta.dirname, '..')

function start(env: Pick<NodeJS.ProcessEnv, 'NODE_ENV'> & Record<string, string>) {
  const base = childEnv()
  // The compiled server, as `npm start` and the image run it (npm test builds first).
  return spawnSync(process.execPath, ['dist/server.js'], {
    cwd: root,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: 60_000,
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
})
