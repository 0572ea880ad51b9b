/**
 * Starts the real production server (the built Next app behind server.ts) on a free port
 * with a fresh database of the suite's engine (a new SQLite file, or a new database on the
 * suite's MongoDB server), dropped when the server stops. `npm test` builds before running vitest.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import { serverNodeFlags } from '../../../scripts/serverCommand.mjs'
import { parseConfig } from '../../../src/platform/config'
import { dropDatabase } from '../../support/engineProbes'

export type RunningServer = { baseUrl: string; logs: string[]; mediaDir: string; stop(): Promise<void> }

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-123' }

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

/**
 * `server.ts` is the production entry point; `next` runs stock `next start` instead (no
 * server.ts), where /api/v1 is served by the Next route.
 */
export async function startServer(extraEnv: Record<string, string> = {}, entry: 'server.ts' | 'next' = 'server.ts'): Promise<RunningServer> {
  const root = path.resolve(import.meta.dirname, '../../..')
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    throw new Error('No production build found: run `npm run build` first (`npm test` does).')
  }
  const port = await freePort()
  const id = randomBytes(6).toString('hex')
  const dir = path.join(os.tmpdir(), 'curation-browser', id)
  mkdirSync(dir, { recursive: true })
  // The suite's engine: on MongoDB the same server (DATABASE_URI or DATABASE_HOST) with a database of its own.
  const onMongo = parseConfig(process.env).database.engine === 'mongodb'
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    ...(onMongo ? { DB_NAME: `curation_browser_${id}` } : { DATABASE_URI: `file:${path.join(dir, 'app.db')}` }),
    MEDIA_DIR: path.join(dir, 'media'),
    PAYLOAD_SECRET: randomBytes(32).toString('hex'),
    JWT_ACCESS_SECRET: randomBytes(32).toString('hex'),
    JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    NEXT_TELEMETRY_DISABLED: '1',
    // One serving process unless the file asks for more: production's default is one per core,
    // and each loads Next and Payload. The files that hold the console across processes (the
    // walk, the moderator's paths, the relationship paths) ask for two.
    WEB_CONCURRENCY: '1',
    ...extraEnv,
  }
  const args =
    entry === 'next' ? [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port)] : [...serverNodeFlags(root), 'dist/server.js']
  const child: ChildProcess = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const logs: string[] = []
  child.stdout!.on('data', (d) => logs.push(String(d)))
  child.stderr!.on('data', (d) => logs.push(String(d)))
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join('')}`)
    try {
      const res = await fetch(`${baseUrl}/api/v1/ready`)
      if (res.status === 200) break
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server not ready in time:\n${logs.join('')}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    baseUrl,
    logs,
    mediaDir: env.MEDIA_DIR!,
    stop: async () => {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
      await dropDatabase(parseConfig(env).database)
    },
  }
}
