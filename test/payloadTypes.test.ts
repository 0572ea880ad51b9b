/**
 * payload-types.ts is generated from the collections (`npm run generate:types`) and checked
 * in, so the Local API is typed by it. A collection change without regenerating fails here:
 * the types are regenerated into a scratch file and compared with the checked-in one.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { childEnv } from './support/childEnv'

const root = path.resolve(import.meta.dirname, '..')

describe('payload-types.ts', () => {
  it('matches what npm run generate:types produces from the current collections', () => {
    const scratch = path.join(mkdtempSync(path.join(os.tmpdir(), 'payload-types-')), 'payload-types.ts')
    const run = spawnSync('npm', ['run', '--silent', 'generate:types'], {
      cwd: root,
      // Production without secrets or database settings: the script needs neither (it pins SQLite).
      env: {
        ...childEnv(),
        NODE_ENV: 'production',
        PAYLOAD_TS_OUTPUT_PATH: scratch,
      },
      encoding: 'utf8',
      timeout: 120_000,
    })
    expect(run.status, `npm run generate:types failed:\n${run.stdout}\n${run.stderr}`).toBe(0)
    const generated = readFileSync(scratch, 'utf8')
    expect(generated).toContain('export interface GeneratedTypes extends Config {}')
    const checkedIn = readFileSync(path.join(root, 'payload-types.ts'), 'utf8')
    expect(checkedIn === generated, 'payload-types.ts is out of date with the collections: run npm run generate:types and commit it').toBe(true)
  })
})
