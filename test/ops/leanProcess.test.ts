/**
 * What a serving SQLite process loads (issue 14: memory per process). A real server process
 * (test/ops/support/apiServer.ts: server.ts's runtime and /api/v1 path) runs with a preload
 * that records every module it loads (./support/loadedModules.mjs). After serving
 * /api/v1/content and /api/v1/catalog it must not have loaded the MongoDB engine's libraries
 * (mongodb, mongoose, bson, @payloadcms/db-mongodb: bson alone allocates 17 MB at load), nor
 * drizzle-kit (a 14 MB module whose parse leaves ~30 MB of WebAssembly memory behind): the
 * schema comes from migrations, which are SQL, on the first start (which runs them) as on
 * the next (nothing pending).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { startServer, type ServerProcess } from './support/serverProcess'

const onMongo = getConfig().database.engine === 'mongodb'
const preload = path.join(import.meta.dirname, 'support', 'loadedModules.mjs')
const MONGO_PACKAGES = ['mongodb', 'mongoose', 'bson', '@payloadcms/db-mongodb']

const dirs: string[] = []
let running: ServerProcess | undefined

afterAll(() => {
  if (running && running.child.exitCode === null) running.child.kill('SIGKILL')
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function get(port: number, urlPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Starts a server, serves the two hot reads, stops it, and answers the packages it loaded. */
async function packagesLoadedByOneRun(): Promise<Set<string>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loaded-modules-'))
  dirs.push(dir)
  running = await startServer({ NODE_OPTIONS: `--import ${preload}`, LOADED_MODULES_DIR: dir })
  expect(await get(running.port, '/api/v1/content')).toBe(200)
  expect(await get(running.port, '/api/v1/catalog')).toBe(200)
  running.child.kill('SIGTERM')
  expect(await running.exited).toEqual({ code: 0, signal: null })
  const file = path.join(dir, `${running.child.pid}.txt`)
  expect(readdirSync(dir)).toContain(`${running.child.pid}.txt`)
  const packages = new Set<string>()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const loaded = line.split('\t')[0]!
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(loaded.slice(loaded.lastIndexOf('/node_modules/')))
    if (match) packages.add(match[1]!)
  }
  return packages
}

describe.skipIf(onMongo)('a serving SQLite process loads only what it uses', () => {
  it('never the MongoDB libraries nor drizzle-kit, whether the start migrates or not', async () => {
    // First start on this file's fresh database: every migration runs. The recorder sees
    // CommonJS loads (libsql) as well as ES modules (Payload's SQLite adapter).
    const first = await packagesLoadedByOneRun()
    expect(running!.lines.find((l) => l.msg === 'migrations.applied')).toBeDefined()
    expect(first).toContain('libsql')
    expect(first).toContain('@payloadcms/db-sqlite')
    expect([...MONGO_PACKAGES, 'drizzle-kit'].filter((p) => first.has(p))).toEqual([])

    // Second start: nothing pending.
    const second = await packagesLoadedByOneRun()
    expect(running!.lines.find((l) => l.msg === 'migrations.up_to_date')).toBeDefined()
    expect(second).toContain('@payloadcms/db-sqlite')
    expect([...MONGO_PACKAGES, 'drizzle-kit'].filter((p) => second.has(p))).toEqual([])
  }, 240_000)
})
