/**
 * The Docker deployment, checked without a Docker engine: `docker-compose config` resolves
 * the stack (Debian's docker-compose; .ci/run installs it), the app receives the database
 * password as a part it encodes itself, and the image runs as a non-root user that owns
 * everything the app writes, starting with runtime dependencies only.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { MongoClient } from 'mongodb'
import { describe, expect, it } from 'vitest'

import { serverNodeFlags } from '../scripts/serverCommand.mjs'
import { parseConfig } from '../src/platform/config'

const root = path.resolve(import.meta.dirname, '..')
/** A JSON file of the project (package.json, package-lock.json), parsed. */
const projectJson = (name: string) => JSON.parse(readFileSync(path.join(root, name), 'utf8'))
const COMPOSE = '/usr/bin/docker-compose'
// Characters that break a pasted URI: / : % @ ? # + (a typical `openssl rand -base64` output has some).
const PASSWORD = 'Zm9v/Ym:Fy%40@?#+=='

/** `docker-compose config` in a scratch directory holding the compose file and a `.env`. */
function composeConfig(dotEnv: string): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compose-'))
  copyFileSync(path.join(root, 'docker-compose.yml'), path.join(dir, 'docker-compose.yml'))
  writeFileSync(path.join(dir, '.env'), dotEnv)
  const run = spawnSync(COMPOSE, ['-f', 'docker-compose.yml', 'config'], {
    cwd: dir,
    // Only the .env file configures it: none of this process's DATABASE_*/DB_NAME leak in.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NODE_ENV: 'test' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

/** The `environment:` mapping of one service in docker-compose's resolved output. */
function serviceEnvironment(resolved: string, service: string): Record<string, string> {
  const lines = resolved.split('\n')
  const start = lines.indexOf(`  ${service}:`)
  expect(start, `service ${service} in the resolved config`).toBeGreaterThanOrEqual(0)
  const envAt = lines.findIndex((l, i) => i > start && l === '    environment:')
  const env: Record<string, string> = {}
  for (const line of lines.slice(envAt + 1)) {
    const m = /^ {6}([A-Z0-9_]+): (.*)$/.exec(line)
    if (!m) break
    const raw = m[2]!
    // Plain or single-quoted YAML scalars; compose writes a literal `$` as `$$`.
    const value = raw.startsWith("'") ? raw.slice(1, -1).replaceAll("''", "'") : raw
    env[m[1]!] = value.replaceAll('$$', '$')
  }
  return env
}

/** The instructions of the Dockerfile's last stage (the image that runs). */
function finalStage(): string[] {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ')
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
  const from = lines.map((l, i) => (/^FROM\s/i.test(l) ? i : -1)).filter((i) => i >= 0).pop()!
  return lines.slice(from)
}

describe('docker-compose', () => {
  it('is installed here (CI installs Debian docker-compose to check the stack)', () => {
    expect(existsSync(COMPOSE), `${COMPOSE} missing: apt-get install docker-compose`).toBe(true)
  })

  it('`docker-compose config` resolves the stack and refuses to run without a database password', () => {
    const ok = composeConfig(`DATABASE_ROOT_PASSWORD=${PASSWORD}\n`)
    expect(ok.stderr).toBe('')
    expect(ok.status).toBe(0)
    const missing = composeConfig('DB_NAME=x\n')
    expect(missing.status).not.toBe(0)
    expect(missing.stderr).toContain('set DATABASE_ROOT_PASSWORD in .env')
  })

  it('hands the app the password as a part, and the URI the app builds carries it intact to the driver', () => {
    const resolved = composeConfig(`DATABASE_ROOT_PASSWORD=${PASSWORD}\nDATABASE_ROOT_USER=admin\nDB_NAME=prod\n`)
    expect(resolved.status).toBe(0)
    // No resolved value pastes the password into a URI.
    for (const line of resolved.stdout.split('\n')) {
      if (line.includes('mongodb://')) expect(line).not.toContain(PASSWORD)
    }
    const env = serviceEnvironment(resolved.stdout, 'app')
    expect(env).toMatchObject({ DATABASE_HOST: 'mongo:27017', DATABASE_ROOT_USER: 'admin', DATABASE_ROOT_PASSWORD: PASSWORD, DB_NAME: 'prod' })
    expect(env.DATABASE_URI ?? '').toBe('')
    const mongo = serviceEnvironment(resolved.stdout, 'mongo')
    expect(mongo).toEqual({ MONGO_INITDB_ROOT_USERNAME: 'admin', MONGO_INITDB_ROOT_PASSWORD: PASSWORD, REPLICA_SET: 'rs0' })

    const config = parseConfig({ ...env, NODE_ENV: 'test' })
    const { credentials, hosts, dbName, replicaSet } = new MongoClient(config.database.uri).options
    expect({ user: credentials?.username, password: credentials?.password, source: credentials?.source }).toEqual({
      user: 'admin',
      password: PASSWORD,
      source: 'admin',
    })
    expect({ hosts: hosts.map(String), dbName, replicaSet }).toEqual({ hosts: ['mongo:27017'], dbName: 'prod', replicaSet: 'rs0' })
  })

  it('names one replica set everywhere: mongod, its initiation and the app, from DATABASE_REPLICA_SET', () => {
    const resolved = composeConfig(`DATABASE_ROOT_PASSWORD=${PASSWORD}\nDATABASE_REPLICA_SET=prod-rs\n`)
    expect(resolved.status).toBe(0)
    expect(serviceEnvironment(resolved.stdout, 'mongo').REPLICA_SET).toBe('prod-rs')
    const env = serviceEnvironment(resolved.stdout, 'app')
    expect(env.DATABASE_REPLICA_SET).toBe('prod-rs')
    expect(resolved.stdout).toContain('--replSet "$$REPLICA_SET"')
    expect(resolved.stdout).toMatch(/replSetInitiate: \{ _id: process\.env\.REPLICA_SET,/)
    expect(new MongoClient(parseConfig({ ...env, NODE_ENV: 'test' }).database.uri).options.replicaSet).toBe('prod-rs')
  })

  it('publishes MongoDB on loopback only, and the documented host recipe connects directly with transactions on', () => {
    const resolved = composeConfig(`DATABASE_ROOT_PASSWORD=${PASSWORD}\n`)
    expect(resolved.status).toBe(0)
    const mongo = resolved.stdout.slice(resolved.stdout.indexOf('  mongo:'))
    expect(mongo).toMatch(/ports:\n {4}- 127\.0\.0\.1:27017:27017\/tcp\n/)
    // The recipe (docs): the member's name, mongo:27017, resolves only inside compose's network.
    const config = parseConfig({
      NODE_ENV: 'test', DATABASE_HOST: '127.0.0.1:27017', DATABASE_DIRECT_CONNECTION: 'true',
      DATABASE_ROOT_USER: 'root', DATABASE_ROOT_PASSWORD: PASSWORD,
    })
    const { hosts, directConnection, replicaSet, credentials } = new MongoClient(config.database.uri).options
    expect({ hosts: hosts.map(String), directConnection, replicaSet, password: credentials?.password }).toEqual({
      hosts: ['127.0.0.1:27017'], directConnection: true, replicaSet: 'rs0', password: PASSWORD,
    })
  })

  it('a CI workflow runs the whole suite on a real MongoDB replica set (npm run test:mongo)', () => {
    const workflow = readFileSync(path.join(root, '.github/workflows/mongo.yml'), 'utf8')
    expect(workflow).toMatch(/mongo:7 --replSet rs0 /)
    expect(workflow).toContain("rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: '127.0.0.1:27017' }] })")
    expect(workflow).toContain("-e DATABASE_URI='mongodb://127.0.0.1:27017/?replicaSet=rs0'")
    expect(workflow).toMatch(/node:24-bookworm \.ci\/run test:mongo\n/)
    const pkg = projectJson('package.json')
    expect(pkg.scripts['test:mongo']).toBe('tsx scripts/test-mongo.ts')
    expect(readFileSync(path.join(root, '.ci/run'), 'utf8')).toContain('npm run "${1:-test}"')
  })

  it('keeps credentials off command lines: the healthcheck reads them from its environment', () => {
    const compose = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')
    expect(compose).not.toMatch(/mongodb:\/\/[^\s'"]*\$\{?DATABASE_ROOT_PASSWORD/)
    expect(compose).not.toMatch(/-p\s+"?\$+\{?MONGO_INITDB_ROOT_PASSWORD/)
    expect(compose).toContain('encodeURIComponent(process.env.MONGO_INITDB_ROOT_PASSWORD)')
  })
})

describe('Dockerfile', () => {
  const stage = finalStage()

  it('ships the Node that CI tests: every stage on the same LTS major as .ci/run', () => {
    const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8')
    const majors = [...text.matchAll(/^FROM node:(\d+)-/gm)].map((m) => m[1])
    const ci = /^NODE_MAJOR=(\d+)$/m.exec(readFileSync(path.join(root, '.ci/run'), 'utf8'))?.[1]
    expect(majors).toHaveLength(2)
    expect(new Set(majors)).toEqual(new Set(['24']))
    expect(ci).toBe('24')
  })

  it('runs the app as a non-root user', () => {
    const users = stage.filter((l) => /^USER\s/i.test(l)).map((l) => l.split(/\s+/)[1]!)
    expect(users.length).toBeGreaterThan(0)
    expect(['root', '0', '0:0']).not.toContain(users.at(-1))
    expect(users.at(-1)).toBe('node')
  })

  it('creates every directory the app writes, and every volume mount point, owned by that user', () => {
    const compose = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')
    const mountPoints = [...compose.matchAll(/^\s+- [\w-]+:(\/app\/[^\s:]+)/gm)].map((m) => m[1]!)
    expect(mountPoints).toEqual(['/app/data/media'])
    // data/ holds the SQLite file and uploads (collections/Media.ts staticDir), .next/cache Next's runtime cache.
    const written = ['/app/data', '/app/data/media', '/app/.next/cache']
    const run = stage.filter((l) => /^RUN\s/i.test(l)).join(' ')
    const created = /mkdir -p ([^&]+)/.exec(run)?.[1]?.trim().split(/\s+/) ?? []
    for (const dir of [...written, ...mountPoints]) {
      // mkdir -p makes the parents too.
      expect(created.some((c) => c === dir || c.startsWith(`${dir}/`)), dir).toBe(true)
    }
    const chown = /chown -R node:node ([^&]+)/.exec(run)
    expect(chown).not.toBeNull()
    const owned = chown![1]!.trim().split(/\s+/)
    for (const dir of [...written, ...mountPoints]) {
      expect(owned.some((o) => dir === o || dir.startsWith(`${o}/`)), dir).toBe(true)
    }
    // USER comes after the ownership change, so nothing later recreates them as root.
    expect(stage.findIndex((l) => /^USER\s/i.test(l))).toBeGreaterThan(stage.findIndex((l) => l.includes('chown')))
  })

  it('runs the compiled server with plain node: no transpiler loaded, none installed', () => {
    const cmd = stage.find((l) => /^CMD\s/i.test(l))!
    const argv: string[] = JSON.parse(cmd.replace(/^CMD\s+/i, ''))
    expect(argv[0]).toBe('node')
    expect(argv.at(-1)).toBe('dist/server.js')
    // The same flags as `npm start` (the demo and the browser tests read them from there).
    expect(argv).toEqual(['node', ...serverNodeFlags(root), 'dist/server.js'])
    expect(argv.filter((a) => a === '--import' || a === '--loader' || a === '--require' || a === '-r')).toEqual([])
    const pkg = projectJson('package.json')
    // The build emits what the CMD runs; npm start runs the same file.
    expect(pkg.scripts.build).toContain('node scripts/build-server.mjs')
    expect(pkg.scripts.start).toMatch(/ dist\/server\.js$/)
    expect(readFileSync(path.join(root, 'scripts/build-server.mjs'), 'utf8')).toContain("server: 'server.ts'")
    // The image prunes dev dependencies, and the transpilers are only that.
    expect(readFileSync(path.join(root, 'Dockerfile'), 'utf8')).toContain('npm prune --omit=dev')
    for (const transpiler of ['tsx', 'ts-node', 'esbuild', 'typescript']) expect(Object.keys(pkg.dependencies)).not.toContain(transpiler)
    // The operator's scripts that run beside it are compiled too.
    expect(pkg.scripts.backup).toBe('node dist/scripts/backup.js')
    expect(pkg.scripts.restore).toBe('node dist/scripts/restore.js')
  })

  it("builds the server into an emptied directory: no earlier build's chunks beside this one's, and none sent to the image's build", () => {
    const outdir = mkdtempSync(path.join(os.tmpdir(), 'server-build-'))
    const stale = path.join(outdir, 'chunks', 'engine-STALE000.js')
    mkdirSync(path.dirname(stale), { recursive: true })
    writeFileSync(stale, 'export {}\n')
    const run = spawnSync(process.execPath, ['scripts/build-server.mjs', outdir], { cwd: root, encoding: 'utf8' })
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' })
    expect(existsSync(path.join(outdir, 'server.js'))).toBe(true)
    expect(existsSync(stale)).toBe(false)
    // A local dist/ (this machine's builds) is not part of the image's context: the image builds its own.
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim())
    expect(ignored).toContain('dist')
  })

  it("keeps V8 from pretenuring the request's objects, with a flag this Node still takes", () => {
    // Under 64 connections V8's allocation-site feedback sometimes tenured Node's per-request HTTP
    // objects, and every request then wrote ~4 KB to the old generation: a full collection every
    // ~2 s (docs/operations.md, *Heap*). A V8 that drops the flag refuses to start with it.
    const flags = serverNodeFlags(root)
    expect(flags).toContain('--no-allocation-site-pretenuring')
    const run = spawnSync(process.execPath, [...flags, '-e', "process.stdout.write('ok')"], { encoding: 'utf8' })
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: 'ok', stderr: '' })
  })
})

describe('npm ci', () => {
  // npm 11 warns about install scripts package.json does not name, and a later npm skips them. argon2's
  // prebuilt binary loads on Node 24 but crashes Node 20 (SIGSEGV when the addon registers); its install
  // script is what builds it from source there (node-gyp: python3, make, g++).
  it('names every dependency with an install script in allowScripts: the native hasher allowed, telemetry not', () => {
    const pkg = projectJson('package.json')
    const lock = projectJson('package-lock.json')
    const packages = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
    const withScripts = new Set(packages.filter(([where, entry]) => where && entry.hasInstallScript).map(([where]) => where.replace(/^.*node_modules\//, '')))
    expect([...withScripts].filter((name) => !(name in pkg.allowScripts))).toEqual([])
    expect(pkg.allowScripts).toMatchObject({ argon2: true, '@scarf/scarf': false })
  })
})
