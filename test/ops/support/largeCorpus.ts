/**
 * The large corpus test/ops/writeThenSearch.test.ts measures on (300,000 items), seeded by
 * `npm run seed` in a process of its own while the rest of the suite runs: that file runs alone,
 * after every other (vitest.config.ts), and seeding there took ~25 s of a run's serial tail.
 * `setup` is the `alone` project's global set-up; the test takes the file with `takeLargeCorpus`,
 * which waits for the seed and moves its database to the test file's own path. SQLite only (the
 * measured corpus is SQLite's); on MongoDB nothing is seeded.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { TestProject } from 'vitest/node'

import { configuredEngine } from '../../../src/platform/config/databaseUri'
import { childEnv } from '../../support/childEnv'

export const LARGE_CORPUS = { items: 300_000, seed: 3 }

declare module 'vitest' {
  interface ProvidedContext {
    largeCorpus: string | null
  }
}

export default function setup(project: TestProject): () => void {
  if (configuredEngine() === 'mongodb') {
    project.provide('largeCorpus', null)
    return () => undefined
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'curation-large-corpus-'))
  const file = path.join(dir, 'corpus.db')
  const root = path.resolve(import.meta.dirname, '../../..')
  const args = ['--import', 'tsx', 'scripts/seed.ts', '--demo', '--content', String(LARGE_CORPUS.items), '--seed', String(LARGE_CORPUS.seed)]
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...childEnv(),
      NODE_ENV: 'test',
      DATABASE_URI: `file:${file}`,
      PAYLOAD_SECRET: 'large-corpus-payload-secret-0123456789abcdef',
      JWT_ACCESS_SECRET: 'large-corpus-access-secret-0123456789abcdef',
      JWT_REFRESH_SECRET: 'large-corpus-refresh-secret-0123456789abcdef',
      // The admin test/ops/support/serverProcess.ts's servers sign in as.
      BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'admin-password-123',
      PASSWORD_HASH_COST: 'test',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (c: string) => (stderr = (stderr + c).slice(-4000)))
  let tornDown = false
  child.once('exit', (code, signal) => {
    // A run that ends before the seed does (one file run alone) kills it and removes `dir`.
    if (tornDown) return
    if (code === 0) writeFileSync(`${file}.done`, '')
    else writeFileSync(`${file}.failed`, `npm run seed exited (${code ?? signal}): ${stderr}`)
  })
  project.provide('largeCorpus', file)
  return () => {
    tornDown = true
    if (child.exitCode === null) child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Waits for the seeded corpus and moves it to `target` (the test file's own database path). */
export async function takeLargeCorpus(file: string, target: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!existsSync(`${file}.done`)) {
    if (existsSync(`${file}.failed`)) throw new Error(readFileSync(`${file}.failed`, 'utf8'))
    if (Date.now() > deadline) throw new Error(`the large corpus was not seeded within ${timeoutMs / 1000} s`)
    await new Promise((r) => setTimeout(r, 200))
  }
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix)
}
