/**
 * `npm run test:mongo` refuses, with one message and before running anything, a server it
 * cannot test on: none named, a URI without replicaSet=, a standalone server (the scripted
 * wire server, test/support/mongoWireServer, plays the standalone).
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'

import { startWireServer, type WireServer } from '../support/mongoWireServer'
import { childEnv } from '../support/childEnv'

const root = path.resolve(import.meta.dirname, '../..')
let server: WireServer | undefined
afterAll(() => server?.close())

/** Async: the scripted server answers from this process, which must not block. */
async function testMongo(env: Record<string, string>) {
  const base: NodeJS.ProcessEnv = { ...childEnv(), NODE_ENV: 'test' }
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/test-mongo.ts'], { cwd: root, env: { ...base, ...env }, encoding: 'utf8', timeout: 60_000 }).then(
    (r) => ({ status: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ status: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  )
}

it('refuses without a MongoDB server named', async () => {
  const run = await testMongo({ DATABASE_URI: 'file:./x.db' })
  expect(run.status).toBe(2)
  expect(run.stderr).toContain("test:mongo needs a MongoDB replica set: DATABASE_URI='mongodb://host:27017/?replicaSet=rs0'")
})

it('refuses a standalone server, and a replica set member named without replicaSet=', async () => {
  server = await startWireServer(() => undefined, { setName: null })
  const standalone = await testMongo({ DATABASE_URI: server.uri('x') })
  expect(standalone.status).toBe(2)
  expect(standalone.stderr).toContain('test:mongo: cannot use this server: the server is not a replica set member')
  await server.close()
  server = await startWireServer(() => undefined, { setName: 'rs0' })
  const noSet = await testMongo({ DATABASE_URI: server.uri('x').replace(/replicaSet=[^&]+&?/, '') })
  expect(noSet.status).toBe(2)
  expect(noSet.stderr).toContain('test:mongo: cannot use this server: the URI names no replicaSet=')
  expect(noSet.stdout).not.toContain('vitest')
})
