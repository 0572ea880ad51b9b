/**
 * npm run bench: throughput and latency of the content API on 100,000 items (BENCH_ITEMS), beside
 * its references measured in the same run on the same data: Payload's stock REST find (an admin
 * session, served by stock `next start` in its own process) and a bare node:http server returning
 * the same body from memory (the ceiling).
 *
 * Every server runs as production does: `npm start` (compiled server, its heap flags),
 * LOG_LEVEL=info, stdout captured to a file as a process manager captures it, one worker unless a
 * row says otherwise. Every ratio printed comes from alternating rounds in this run (A B A B …, the
 * order rotating every round), never from rows minutes apart, so drift in the machine's load falls
 * on both sides alike: GET /content and the 304 catalog against the ceiling; N workers against one;
 * LOG_LEVEL=info against warn. Each row also reports the CPU the load generator and the server's
 * processes used (their share of the machine), which is what bounds the workers' ratio on 2 cores.
 * One row is one user's cold search: a query at a time (no queue) whose two words nobody asked
 * yet, for its p99; the row after it asks new queries on every connection, for throughput.
 * A last row measures freshness across processes: a write through one server, polled through
 * another until every answer shows it. Prints one markdown table and writes it to
 * bench/results/latest.md. Not a test.
 *
 * The load generator is wrk (Debian's package; C, 1 thread) when installed, else autocannon
 * (BENCH_LOAD=autocannon forces it): wrk costs the machine far less CPU per request.
 *
 * Env knobs: BENCH_ITEMS (100000), BENCH_TAGS (2000), BENCH_DURATION seconds (10),
 * BENCH_CONNECTIONS (32), BENCH_PORT (3400), BENCH_WORKERS (2), BENCH_ROUNDS (3),
 * BENCH_FRESHNESS_TRIALS (20), BENCH_LOAD (wrk | autocannon).
 */
import autocannon from 'autocannon'
import { execSync, spawn, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'

import { progress, type Progress } from '../scripts/progress'
import { mixedPhases, mixedTable, PHASES, serverGauges } from './mixed'
import type { ContentDto } from '../src/services/content'

const root = path.resolve(import.meta.dirname, '..')
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000)
const TAGS = Number(process.env.BENCH_TAGS ?? 2_000)
const DURATION = Number(process.env.BENCH_DURATION ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const PORT = Number(process.env.BENCH_PORT ?? 3400)
const RAW_PORT = PORT + 1
const STOCK_PORT = PORT + 2
const WARN_PORT = PORT + 3
const WORKERS_PORT = PORT + 4
const RAW_WORKERS_PORT = PORT + 5
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const FRESHNESS_TRIALS = Number(process.env.BENCH_FRESHNESS_TRIALS ?? 20)
const WRK = '/usr/bin/wrk'
const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 30)
const MIXED_ROUNDS = Number(process.env.BENCH_MIXED_ROUNDS ?? 1)
const MIXED_METRICS_TOKEN = 'bench-metrics-token-0123456789'
const GENERATOR = process.env.BENCH_LOAD ?? (existsSync(WRK) ? 'wrk' : 'autocannon')
const CLOCK_TICKS = Number(execSync('getconf CLK_TCK').toString().trim()) || 100
const CPUS = os.cpus().length
const base = `http://127.0.0.1:${PORT}`
let bar: Progress | undefined
const log = (msg: string) => (bar ? bar.step(msg) : process.stderr.write(`[bench] ${msg}\n`))

const dbDir = path.join(os.tmpdir(), `curation-bench-${Date.now()}`)
mkdirSync(dbDir, { recursive: true })
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'production',
  NEXT_TELEMETRY_DISABLED: '1',
  // BENCH_DATABASE_URI (a MongoDB replica set) runs every row on MongoDB, in a database of its own.
  DATABASE_URI: process.env.BENCH_DATABASE_URI ?? `file:${path.join(dbDir, 'bench.db')}`,
  ...(process.env.BENCH_DATABASE_URI?.startsWith('mongodb') ? { DB_NAME: `curation_bench_${Date.now()}` } : {}),
  PORT: String(PORT),
  PAYLOAD_SECRET: 'bench-payload-secret-0123456789abcdef0123',
  JWT_ACCESS_SECRET: 'bench-access-secret-0123456789abcdef0123456',
  JWT_REFRESH_SECRET: 'bench-refresh-secret-0123456789abcdef012345',
  BOOTSTRAP_ADMIN_EMAIL: 'bench-admin@example.com',
  BOOTSTRAP_ADMIN_PASSWORD: 'bench-admin-password-123',
  CORS_ALLOWED_ORIGINS: 'http://localhost:5173',
  // Production's level: one request.completed line per request, to the captured stdout.
  LOG_LEVEL: 'info',
  // One serving process unless a row says otherwise (production's default is one per CPU).
  WEB_CONCURRENCY: '1',
  SEED_DEMO: 'false',
  // The mixed row reads the server's event-loop delay from its metrics, and submits past the default hourly limit.
  METRICS_TOKEN: MIXED_METRICS_TOKEN,
  RATE_LIMIT_SUBMIT: '1000000/3600',
}
const logDir = path.join(dbDir, 'logs')
mkdirSync(logDir, { recursive: true })

const children: ChildProcess[] = []
function cleanup() {
  for (const c of children) if (c.pid && c.exitCode === null) try { process.kill(-c.pid, 'SIGTERM') } catch { /* gone */ }
  rmSync(dbDir, { recursive: true, force: true })
}
process.on('exit', cleanup)
process.on('SIGINT', () => process.exit(130))

/** Every process under (and including) pid, with its CPU ticks so far and RSS in MB. */
function processTree(pid: number): { pid: number; ticks: number; rssMb: number }[] {
  const parent = new Map<number, number>()
  const ticks = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parent.set(Number(entry), Number(fields[1]))
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]))
    } catch { /* exited */ }
  }
  const inTree = (p: number): boolean => p === pid || (parent.has(p) && p > 1 && inTree(parent.get(p)!))
  const out: { pid: number; ticks: number; rssMb: number }[] = []
  for (const p of parent.keys()) {
    if (inTree(p)) out.push({ pid: p, ticks: ticks.get(p) ?? 0, rssMb: rssMb(p) })
  }
  return out
}

/** A process's resident size in MB (0 once it has exited). */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) / 1024 : 0
  } catch {
    return 0 // exited
  }
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status === 200) return
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`timed out waiting for ${url}`)
}

/** Starts a process whose stdout goes to a file, as a process manager captures it. */
function start(name: string, cmd: string, args: string[], extraEnv: Record<string, string> = {}): ChildProcess {
  const out = openSync(path.join(logDir, `${name}.log`), 'a')
  const child = spawn(cmd, args, { cwd: root, env: { ...env, ...extraEnv }, detached: true, stdio: ['ignore', out, 'inherit'] })
  closeSync(out)
  children.push(child)
  return child
}

function stop(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null) return Promise.resolve()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch { /* gone */ }
  return exited
}

/** Lines a server wrote to its captured stdout (request.completed lines, mostly). */
function logLines(name: string): number {
  try {
    const text = readFileSync(path.join(logDir, `${name}.log`), 'utf8')
    let n = 0
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
    return n
  } catch {
    return 0
  }
}

/**
 * `paths`: one per request, never reused across runs (cold searches nobody asked before); `next`
 * is the first unused. `cycle`: paths asked in turn, over and over (the mixed row's read mix).
 */
type Load = { url: string; headers?: Record<string, string>; expect304?: boolean; paths?: { list: string[]; next: number }; cycle?: string[] }

/** The next `count` unused paths of a load (each path is asked once in the whole run). */
function takePaths(load: Load, count: number): string[] {
  const p = load.paths!
  const taken = p.list.slice(p.next, p.next + count)
  p.next += count
  if (taken.length < count) throw new Error('the bench ran out of unused paths')
  return taken
}

/** More than a run of this many seconds can ask for. */
const pathsFor = (seconds: number) => seconds * 4000
type LoadResult = { rps: number; p50: number; p99: number; unexpected: number; bytesPerRequest: number; generatorTicks: number }

/** wrk's summary: requests/s, p50/p99 (ms), non-2xx/3xx and socket errors, bytes read. */
function parseWrk(text: string, seconds: number): Omit<LoadResult, 'generatorTicks'> {
  const ms = (label: string) => {
    const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(text)
    if (!m) return NaN
    const v = Number(m[1])
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v
  }
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0)
  const total = Number(/(\d+) requests in/.exec(text)?.[1] ?? 0)
  const bytes = /requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB) read/.exec(text)
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[bytes?.[2] as 'B'] ?? 1
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
  const errors = socket ? socket.slice(1).reduce((a, v) => a + Number(v), 0) : 0
  void seconds
  return { rps: Math.round(rps), p50: ms('50'), p99: ms('99'), unexpected: non2xx + errors, bytesPerRequest: total ? Math.round((Number(bytes?.[1] ?? 0) * unit) / total) : 0 }
}

/** A Lua script that sends `paths` in turn, one per request (cold searches nobody asked before). */
function pathsScript(paths: string[]): string {
  const file = path.join(dbDir, `paths-${Date.now()}.lua`)
  writeFileSync(file, `local paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}\nlocal n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, paths[(n - 1) % #paths + 1])\nend\n`)
  return file
}

/** Runs wrk under a shell that reports its children's CPU ticks (cutime + cstime) once wrk exits. */
function runWrk(load: Load, seconds: number): Promise<LoadResult> {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '--timeout', '30s']
  for (const [k, v] of Object.entries(load.headers ?? {})) args.push('-H', `${k}: ${v}`)
  if (load.paths) args.push('-s', pathsScript(takePaths(load, pathsFor(seconds))))
  else if (load.cycle) args.push('-s', pathsScript(load.cycle))
  args.push(load.url)
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')
  const script = `${WRK} ${quoted}; read -a s < /proc/$$/stat; echo "CHILD_TICKS $(( s[15] + s[16] ))"`
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk failed (${code}): ${out}`))
      resolve({ ...parseWrk(out, seconds), generatorTicks: Number(/CHILD_TICKS (\d+)/.exec(out)?.[1] ?? 0) })
    })
  })
}

async function runAutocannon(load: Load, seconds: number): Promise<LoadResult> {
  const paths = load.paths ? takePaths(load, pathsFor(seconds)) : (load.cycle ?? [])
  let n = 0
  const requests = paths.length ? [{ setupRequest: (req: { path: string }) => ({ ...req, path: paths[n++ % paths.length]! }) }] : undefined
  const before = process.cpuUsage()
  const r = await autocannon({ url: load.url, connections: CONNECTIONS, duration: seconds, headers: load.headers, timeout: 30, requests })
  const used = process.cpuUsage(before)
  const ok = load.expect304 ? r['3xx'] ?? 0 : r['2xx'] ?? 0
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    unexpected: r.requests.total - ok + (r.errors ?? 0) + (r.timeouts ?? 0),
    bytesPerRequest: 0,
    generatorTicks: Math.round(((used.user + used.system) / 1e6) * CLOCK_TICKS),
  }
}

const runLoad = (load: Load, seconds: number) => (GENERATOR === 'wrk' ? runWrk(load, seconds) : runAutocannon(load, seconds))

/**
 * Each of `paths` once, one request at a time on one kept-alive connection (no queue): the
 * latency one user meets. No Accept-Encoding (a plain answer, as the other rows get it); the
 * time runs from the request to the answer's last byte. Bytes per answer count the body only
 * (wrk's rows count the headers too, ~700 bytes).
 */
async function runOneAtATime(base: string, paths: string[]): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = (url: string) =>
    new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          let bytes = 0
          res.on('data', (c: Buffer) => (bytes += c.length))
          res.on('end', () => resolve({ status: res.statusCode!, bytes }))
        })
        .on('error', reject)
    })
  const cpuBefore = process.cpuUsage()
  const times: number[] = []
  let unexpected = 0
  let bytes = 0
  const startedAt = performance.now()
  for (const p of paths) {
    const t = performance.now()
    const answer = await get(`${base}${p}`)
    times.push(performance.now() - t)
    bytes += answer.bytes
    if (answer.status !== 200) unexpected += 1
  }
  const seconds = (performance.now() - startedAt) / 1000
  agent.destroy()
  const cpu = process.cpuUsage(cpuBefore)
  const sorted = times.sort((a, b) => a - b)
  return {
    rps: Math.round(paths.length / seconds),
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    unexpected,
    bytesPerRequest: Math.round(bytes / paths.length),
    generatorTicks: Math.round(((cpu.user + cpu.system) / 1e6) * CLOCK_TICKS),
  }
}

let rowsDone = 0

type Row = {
  name: string
  rps: number
  p50: number
  p99: number
  rssMb: number
  unexpected: number
  bytesPerRequest: number
  /** Share of the machine's CPU (all cores = 100%) over the measured window. */
  generatorCpu: number
  serverCpu: number
  /** Per server process, largest first (the primary and its workers). */
  processCpu: number[]
}

const measure = (name: string, load: Load, serverPid: number | undefined): Promise<Row> =>
  measureWindow(name, serverPid, () => runLoad(load, 2), () => runLoad(load, DURATION))

/** A row: `warmUp` (so JIT and caches settle), then `run` measured with the server's CPU and peak RSS. */
async function measureWindow(name: string, serverPid: number | undefined, warmUp: () => Promise<unknown>, run: () => Promise<LoadResult>): Promise<Row> {
  // The server's processes, found once: a walk of all of /proc takes the bench's own event loop
  // ~3 ms (up to 8), and the one-at-a-time row's client shares that loop, so a walk every 250 ms
  // landed in ~20 of its 460 timed queries and added ~4 ms to its p99. Sampling reads only these.
  const serverPids = serverPid ? processTree(serverPid).map((p) => p.pid) : []
  let peakRss = 0
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, ...serverPids.map(rssMb))), 250)
  await warmUp()
  const before = new Map((serverPid ? processTree(serverPid) : []).map((p) => [p.pid, p.ticks]))
  const startedAt = performance.now()
  const r = await run()
  const elapsed = (performance.now() - startedAt) / 1000
  const after = serverPid ? processTree(serverPid) : []
  clearInterval(sampler)
  peakRss = Math.max(peakRss, ...after.map((p) => p.rssMb))
  const share = (ticks: number) => Math.round((ticks / CLOCK_TICKS / elapsed / CPUS) * 1000) / 10
  const processCpu = after.map((p) => share(p.ticks - (before.get(p.pid) ?? 0))).filter((c) => c >= 0.5).sort((a, b) => b - a)
  const row: Row = {
    name,
    rps: r.rps,
    p50: Math.round(r.p50 * 100) / 100,
    p99: Math.round(r.p99 * 100) / 100,
    rssMb: Math.round(peakRss),
    unexpected: r.unexpected,
    bytesPerRequest: r.bytesPerRequest,
    generatorCpu: share(r.generatorTicks),
    serverCpu: Math.round(processCpu.reduce((a, c) => a + c, 0) * 10) / 10,
    processCpu,
  }
  log(`${name}: ${row.rps} rps, p50 ${row.p50} ms, p99 ${row.p99} ms, RSS ${row.rssMb} MB, CPU load ${row.generatorCpu}% server ${row.serverCpu}%, unexpected ${row.unexpected}`)
  rowsDone += 1
  bar?.update(rowsDone)
  return row
}

/** The mean of a row's alternating rounds (RSS: the peak). */
function meanOf(rs: Row[], name: string): Row {
  const avg = (f: (r: Row) => number, digits = 0) => {
    const v = rs.reduce((a, r) => a + f(r), 0) / rs.length
    return Math.round(v * 10 ** digits) / 10 ** digits
  }
  return {
    name,
    rps: avg((r) => r.rps),
    p50: avg((r) => r.p50, 2),
    p99: avg((r) => r.p99, 2),
    rssMb: Math.max(...rs.map((r) => r.rssMb)),
    unexpected: rs.reduce((a, r) => a + r.unexpected, 0),
    bytesPerRequest: avg((r) => r.bytesPerRequest),
    generatorCpu: avg((r) => r.generatorCpu, 1),
    serverCpu: avg((r) => r.serverCpu, 1),
    processCpu: rs[0]!.processCpu.map((_, i) => avg((r) => r.processCpu[i] ?? 0, 1)),
  }
}

/** Runs each of `sides` once per round, the order rotating every round; returns each side's rounds. */
async function alternate(sides: { name: string; load: Load; pid: number | undefined }[], rounds: number): Promise<Row[][]> {
  const results: Row[][] = sides.map(() => [])
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sides.length; k++) {
      const i = (round + k) % sides.length
      const side = sides[i]!
      results[i]!.push(await measure(`${side.name} (round ${round + 1})`, side.load, side.pid))
    }
  }
  return results
}

/** No build, or a source file newer than it (the admin panel and Payload's REST run from it). */
function buildIsStale(): boolean {
  const buildId = path.join(root, '.next', 'BUILD_ID')
  if (!existsSync(buildId) || !existsSync(path.join(root, 'dist', 'server.js'))) return true
  const built = statSync(buildId).mtimeMs
  const newer = (p: string): boolean => {
    const st = statSync(p)
    if (st.isDirectory()) return readdirSync(p).some((e) => newer(path.join(p, e)))
    return /\.(ts|tsx|mjs|js|json)$/.test(p) && st.mtimeMs > built
  }
  return ['app', 'collections', 'endpoints', 'access', 'src', 'payload.config.ts', 'package.json']
    .map((p) => path.join(root, p))
    .some((p) => existsSync(p) && newer(p))
}

/** The ETag of `url` over a connection of its own, so a cluster's workers answer in turn (fetch would keep one). */
function etagOnNewConnection(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.headers.etag))
      })
      .on('error', reject)
  })
}

/**
 * Freshness across processes: a platform's label written through `writeApi`, then `readApi`'s
 * catalog read every 2 ms, each read on a new connection (so the cluster's workers answer in
 * turn), until `settled` answers in a row carry the new ETag. Per trial, milliseconds from the
 * write's answer to the first answer of that fresh run (`fresh`: from then on every worker served
 * the write) and to its last (`settled`: the measurement's own end, a few reads later).
 */
async function freshnessTrials(writeApi: string, readApi: string, token: string, platform: string, settled: number): Promise<{ fresh: number[]; settled: number[] }> {
  const fresh: number[] = []
  const settledAfter: number[] = []
  for (let i = 0; i < FRESHNESS_TRIALS; i++) {
    const before = await etagOnNewConnection(`${readApi}/catalog`)
    const res = await fetch(`${writeApi}/catalog/platforms/${platform}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: `Bench ${Date.now()} ${i}` }),
    })
    if (res.status !== 200) throw new Error(`the freshness write answered ${res.status}: ${await res.text()}`)
    const written = performance.now()
    let run = 0
    let runStart = 0
    while (run < settled) {
      const etag = await etagOnNewConnection(`${readApi}/catalog`)
      const at = performance.now() - written
      if (etag === before) run = 0
      else if (run++ === 0) runStart = at
      if (at > 10_000) throw new Error('a write was not seen within 10 s')
      if (run < settled) await new Promise((r) => setTimeout(r, 2))
    }
    fresh.push(runStart)
    settledAfter.push(performance.now() - written)
    await new Promise((r) => setTimeout(r, 50))
  }
  return { fresh: fresh.sort((a, b) => a - b), settled: settledAfter.sort((a, b) => a - b) }
}

const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
const loadAtStart = os.loadavg()[0]!.toFixed(1)

async function main() {
  const startedAt = Date.now()
  if (buildIsStale()) {
    log('building (npm run build)…')
    execSync('npm run build', { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })
  }

  log(`seeding ${ITEMS} items and ${TAGS} tags into a fresh SQLite database…`)
  const seedStart = Date.now()
  execSync(`npx tsx scripts/seed.ts --tags ${TAGS} --content ${ITEMS}`, { cwd: root, env: { ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] })
  const seedSeconds = Math.round((Date.now() - seedStart) / 1000)
  log(`seeded in ${seedSeconds}s; load generator: ${GENERATOR}`)

  // As production runs it (npm start: the compiled server with its heap flags).
  const server = start('server-info', 'npm', ['start'])
  await waitFor(`${base}/api/v1/ready`, 300_000)
  log('server up (npm start, LOG_LEVEL=info, WEB_CONCURRENCY=1, stdout to a file)')

  const api = `${base}/api/v1`
  const first = (await (await fetch(`${api}/content?limit=1`)).json()) as { data: Pick<ContentDto, 'slug' | 'tagSlugs' | 'group'>[] }
  const sample = first.data[0]!
  const tag = sample.tagSlugs[0]
  const group = sample.group
  const catalog = await fetch(`${api}/catalog`)
  const etag = catalog.headers.get('etag')!
  const platform = ((await catalog.json()) as { data: { platforms: { slug: string }[] } }).data.platforms[0]?.slug

  const adminLogin = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: env.BOOTSTRAP_ADMIN_EMAIL, password: env.BOOTSTRAP_ADMIN_PASSWORD }),
  })
  const apiToken = ((await adminLogin.json().catch(() => ({}))) as { data?: { accessToken?: string } }).data?.accessToken
  const login = await fetch(`${base}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: env.BOOTSTRAP_ADMIN_EMAIL, password: env.BOOTSTRAP_ADMIN_PASSWORD }),
  })
  const loginBody = (await login.json().catch(() => ({}))) as { token?: string }
  if (!loginBody.token) log(`admin login failed (${login.status}); the Payload REST row will show errors`)
  const adminHeaders: Record<string, string> = loginBody.token ? { Authorization: `JWT ${loginBody.token}` } : {}

  const body = await (await fetch(`${api}/content`)).text()
  const raw = start('ceiling', process.execPath, [
    '-e',
    `const b=Buffer.from(process.env.BODY);require('node:http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':b.length});s.end(b)}).listen(${RAW_PORT})`,
  ], { BODY: body })
  await waitFor(`http://127.0.0.1:${RAW_PORT}/`, 10_000)

  const { GENERAL } = await import('../src/seed/seed')
  // New two-word queries, each asked once (enough for every request of the row and its warm-up).
  const coldPaths = Array.from({ length: pathsFor(DURATION + 2) }, (_, i) => {
    const n = i + 1
    const a = GENERAL[(n * 7919) % GENERAL.length]!
    const b = GENERAL[(n * 104_729 + Math.floor(n / GENERAL.length) * 31 + 13) % GENERAL.length]!
    return `/api/v1/content?q=${a}%20${b}`
  })

  const ROWS = 10 + 3 * ROUNDS + 4 * ROUNDS + 2 * ROUNDS + PHASES.length * MIXED_ROUNDS
  bar = progress('bench', ROWS, 'rows')
  const pid = server.pid!
  const rows: Row[] = []
  const linesBefore = logLines('server-info')
  rows.push(await measure('GET /content (default page)', { url: `${api}/content` }, pid))
  const loggedLines = logLines('server-info') - linesBefore
  rows.push(await measure('GET /content, tags + group filters', { url: `${api}/content?tags=${tag}&group=${group}` }, pid))
  rows.push(await measure('GET /content?q=typescript (repeated)', { url: `${api}/content?q=typescript` }, pid))
  // One user's cold search: a query at a time whose two words no request has asked yet (each
  // general word once, as bench/searchCold.ts; before the next row, which asks them all).
  const newWords = Array.from({ length: GENERAL.length >> 1 }, (_, i) => `/api/v1/content?q=${GENERAL[2 * i]}%20${GENERAL[2 * i + 1]}`)
  const coldOne = await measureWindow(
    'GET /content?q=, a new 2-word query of new words, one at a time',
    pid,
    () => runOneAtATime(base, newWords.slice(0, 40)),
    () => runOneAtATime(base, newWords.slice(40)),
  )
  rows.push(coldOne)
  rows.push(await measure('GET /content?q=, a new 2-word query every request', { url: `${base}/`, paths: { list: coldPaths, next: 0 } }, pid))
  rows.push(await measure('GET /content?offset=9000', { url: `${api}/content?offset=9000` }, pid))
  rows.push(await measure('GET /content/:slug', { url: `${api}/content/${sample.slug}` }, pid))
  rows.push(await measure('GET /catalog', { url: `${api}/catalog` }, pid))
  const br = await measure('GET /content, Accept-Encoding: br', { url: `${api}/content`, headers: { 'Accept-Encoding': 'br' } }, pid)
  const gzip = await measure('GET /content, Accept-Encoding: gzip', { url: `${api}/content`, headers: { 'Accept-Encoding': 'gzip' } }, pid)
  rows.push(br, gzip)

  // Against the ceiling, in alternating rounds: the default page, the 304 catalog, node:http.
  const [contentRounds, notModifiedRounds, ceilingRounds] = await alternate(
    [
      { name: 'GET /content (default page)', load: { url: `${api}/content` }, pid },
      { name: 'GET /catalog with If-None-Match (304)', load: { url: `${api}/catalog`, headers: { 'If-None-Match': etag }, expect304: true }, pid },
      { name: 'node:http returning the same body (ceiling)', load: { url: `http://127.0.0.1:${RAW_PORT}/` }, pid: raw.pid },
    ],
    ROUNDS,
  )
  const content = meanOf(contentRounds!, `GET /content (default page), mean of ${ROUNDS} rounds beside the ceiling`)
  const notModified = meanOf(notModifiedRounds!, `GET /catalog with If-None-Match (304), mean of ${ROUNDS} rounds`)
  const ceiling = meanOf(ceilingRounds!, `node:http returning the same body (ceiling), mean of ${ROUNDS} rounds`)
  rows.push(content, notModified, ceiling)

  // 1 vs N workers, in alternating rounds: the first server and one with WEB_CONCURRENCY=N.
  const workers = start('server-workers', 'npm', ['start'], { PORT: String(WORKERS_PORT), WEB_CONCURRENCY: String(WORKERS) })
  await waitFor(`http://127.0.0.1:${WORKERS_PORT}/api/v1/ready`, 300_000)
  await new Promise((r) => setTimeout(r, 3000)) // the other workers fork once the first listens
  const workersApi = `http://127.0.0.1:${WORKERS_PORT}/api/v1`
  // The machine's own bound for this ratio: the ceiling in N processes against one, same rounds
  // (the load generator shares the cores; a faster server costs it more of them).
  // A file, not `-e`: cluster forks its workers from the primary's script.
  const rawWorkersScript = path.join(dbDir, 'ceiling-workers.cjs')
  writeFileSync(
    rawWorkersScript,
    `const c=require('node:cluster');if(c.isPrimary){for(let i=0;i<${WORKERS};i++)c.fork()}else{const b=Buffer.from(process.env.BODY);require('node:http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':b.length});s.end(b)}).listen(${RAW_WORKERS_PORT})}`,
  )
  const rawWorkers = start('ceiling-workers', process.execPath, [rawWorkersScript], { BODY: body })
  await waitFor(`http://127.0.0.1:${RAW_WORKERS_PORT}/`, 10_000)
  const [oneRounds, manyRounds, rawOneRounds, rawManyRounds] = await alternate(
    [
      { name: 'GET /content, WEB_CONCURRENCY=1', load: { url: `${api}/content` }, pid },
      { name: `GET /content, WEB_CONCURRENCY=${WORKERS}`, load: { url: `${workersApi}/content` }, pid: workers.pid },
      { name: 'node:http ceiling, 1 process', load: { url: `http://127.0.0.1:${RAW_PORT}/` }, pid: raw.pid },
      { name: `node:http ceiling, ${WORKERS} processes`, load: { url: `http://127.0.0.1:${RAW_WORKERS_PORT}/` }, pid: rawWorkers.pid },
    ],
    ROUNDS,
  )
  await stop(rawWorkers)
  const one = meanOf(oneRounds!, `GET /content, WEB_CONCURRENCY=1, mean of ${ROUNDS} rounds`)
  const many = meanOf(manyRounds!, `GET /content, WEB_CONCURRENCY=${WORKERS}, mean of ${ROUNDS} rounds`)
  const rawOne = meanOf(rawOneRounds!, `node:http ceiling, 1 process, mean of ${ROUNDS} rounds (beside the workers)`)
  const rawMany = meanOf(rawManyRounds!, `node:http ceiling, ${WORKERS} processes (cluster), mean of ${ROUNDS} rounds`)
  rows.push(one, many, rawOne, rawMany)

  // Freshness across processes: written through the first server, read through the cluster.
  let freshness: { fresh: number[]; settled: number[] } = { fresh: [], settled: [] }
  if (apiToken && platform) freshness = await freshnessTrials(api, workersApi, apiToken, platform, 2 * WORKERS)
  else log('no admin token or platform: the freshness row is skipped')
  await stop(workers)

  // Reads while content changes: the mixed row, on the first server (one worker), alone now.
  const tagList = ((await (await fetch(`${api}/tags?limit=20`)).json()) as { data: { slug: string }[] }).data.map((t) => t.slug)
  const queries = Array.from({ length: 100 }, (_, i) => `${GENERAL[(i * 37) % GENERAL.length]} ${GENERAL[(i * 53 + 11) % GENERAL.length]}`)
  const mixed = apiToken
    ? await mixedPhases({
        api,
        token: apiToken,
        tags: tagList,
        queries,
        seconds: MIXED_SECONDS,
        rounds: MIXED_ROUNDS,
        load: async (paths, seconds) => {
          const r = await measureWindow(`mixed, ${seconds}s`, pid, async () => undefined, () => runLoad({ url: base, cycle: paths }, seconds))
          return { rps: r.rps, p50: r.p50, p99: r.p99, unexpected: r.unexpected }
        },
        gauges: async () => serverGauges(await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${MIXED_METRICS_TOKEN}` } })).text()),
        log,
      })
    : []
  if (!apiToken) log('no admin token: the mixed row is skipped')

  // The logging cost: two fresh servers, identical but for LOG_LEVEL, in alternating rounds.
  await stop(server)
  const info = start('server-info-compare', 'npm', ['start'])
  const warn = start('server-warn', 'npm', ['start'], { PORT: String(WARN_PORT), LOG_LEVEL: 'warn' })
  await waitFor(`${base}/api/v1/ready`, 300_000)
  await waitFor(`http://127.0.0.1:${WARN_PORT}/api/v1/ready`, 300_000)
  const [infoRounds, warnRounds] = await alternate(
    [
      { name: 'GET /content, LOG_LEVEL=info', load: { url: `${base}/api/v1/content` }, pid: info.pid },
      { name: 'GET /content, LOG_LEVEL=warn', load: { url: `http://127.0.0.1:${WARN_PORT}/api/v1/content` }, pid: warn.pid },
    ],
    ROUNDS,
  )
  await Promise.all([stop(info), stop(warn)])
  const infoMean = meanOf(infoRounds!, `GET /content, LOG_LEVEL=info (fresh server; mean of ${ROUNDS} rounds)`)
  const warnMean = meanOf(warnRounds!, `GET /content, LOG_LEVEL=warn (comparison only; mean of ${ROUNDS} rounds)`)
  rows.push(infoMean, warnMean)

  // The reference runs as stock Payload does (next start), in its own process on the same
  // database, started only now so it takes no CPU from the rows above.
  const stockServer = start('payload-next-start', 'npx', ['next', 'start', '-p', String(STOCK_PORT)], { PORT: String(STOCK_PORT) })
  await waitFor(`http://127.0.0.1:${STOCK_PORT}/api/v1/ready`, 300_000)
  const stock = await measure(
    'Payload REST find, same page (admin session, stock `next start`)',
    { url: `http://127.0.0.1:${STOCK_PORT}/api/content?limit=30&sort=-approvedAt&where[status][equals]=approved`, headers: adminHeaders },
    stockServer.pid,
  )
  await stop(stockServer)
  rows.push(stock)
  bar.stop()
  bar = undefined

  const references = new Set([stock, ceiling, rawOne, rawMany])
  const serverPeak = Math.max(...rows.filter((r) => !references.has(r)).map((r) => r.rssMb))
  const rounds = (rs: Row[]) => rs.map((r) => r.rps).join(', ')
  const pct = (a: number, b: number) => `${((a / Math.max(b, 1)) * 100).toFixed(0)}%`
  // Workers against one, split in two: how much more CPU the servers got (the load generator
  // takes its share of the same cores) and how much each CPU-second served.
  const perServerCpu = (r: Row) => r.rps / Math.max(r.serverCpu, 0.1)
  const cpuRatio = (a: Row, b: Row) => (a.serverCpu / Math.max(b.serverCpu, 0.1)).toFixed(2)
  const table = [
    `| Scenario | req/s | p50 ms | p99 ms | bytes/answer | CPU: load generator / server (of ${CPUS} cores) | peak RSS MB | unexpected status |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|`,
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.bytesPerRequest || '—'} | ${r.generatorCpu}% / ${r.serverCpu}%${r.processCpu.length > 1 ? ` (${r.processCpu.join(' + ')})` : ''} | ${r.rssMb || '—'} | ${r.unexpected} |`,
    ),
  ].join('\n')
  const { fresh: served, settled } = freshness
  const fresh = served.length
    ? `- freshness across processes (a write through one server, read through the ${WORKERS}-worker cluster, a new connection per read, until ${2 * WORKERS} answers in a row show it; ${served.length} trials): from the write's answer to the first answer of that run, median **${quantile(served, 0.5).toFixed(0)} ms**, p90 ${quantile(served, 0.9).toFixed(0)} ms, max **${served.at(-1)!.toFixed(0)} ms**; to its last (the measurement's end) median ${quantile(settled, 0.5).toFixed(0)} ms, max ${settled.at(-1)!.toFixed(0)} ms`
    : '- freshness across processes: not measured'
  const ratios = [
    `- GET /content vs Payload REST find: **${(content.rps / Math.max(stock.rps, 1)).toFixed(1)}×** throughput`,
    `- GET /content vs bare node:http ceiling (alternating rounds): **${pct(content.rps, ceiling.rps)}** (rounds ${rounds(contentRounds!)} vs ${rounds(ceilingRounds!)})`,
    `- GET /catalog 304 vs bare node:http ceiling (alternating rounds): **${pct(notModified.rps, ceiling.rps)}** (rounds ${rounds(notModifiedRounds!)})`,
    `- GET /content, WEB_CONCURRENCY=${WORKERS} vs 1 (alternating rounds): **${(many.rps / Math.max(one.rps, 1)).toFixed(2)}×** (rounds ${rounds(manyRounds!)} vs ${rounds(oneRounds!)}); CPU during the ${WORKERS}-worker rounds: load generator ${many.generatorCpu}%, server ${many.serverCpu}% (${many.processCpu.join(' + ')}), of ${CPUS} cores; the ceiling itself in ${WORKERS} processes vs 1, same rounds: **${(rawMany.rps / Math.max(rawOne.rps, 1)).toFixed(2)}×** (load generator ${rawMany.generatorCpu}%); what the ratio is made of: the ${WORKERS} workers got **${cpuRatio(many, one)}×** the server CPU one got, and served **${pct(perServerCpu(many), perServerCpu(one))}** as many requests per server CPU-second (the ceiling: ${cpuRatio(rawMany, rawOne)}× and ${pct(perServerCpu(rawMany), perServerCpu(rawOne))})`,
    `- GET /content at LOG_LEVEL=info vs warn (alternating rounds): **${pct(infoMean.rps, warnMean.rps)}** (rounds info ${rounds(infoRounds!)} / warn ${rounds(warnRounds!)})`,
    `- a new two-word search of new words, one at a time (${newWords.length - 40} queries after 40 to warm up, plain answers): p50 ${coldOne.p50.toFixed(1)} ms, p99 **${coldOne.p99.toFixed(1)} ms**, ${coldOne.unexpected} unexpected`,
    `- compressed answers: br ${br.bytesPerRequest || '?'} bytes, gzip ${gzip.bytesPerRequest || '?'} bytes vs ${rows[0]!.bytesPerRequest || '?'} plain (${br.bytesPerRequest ? (rows[0]!.bytesPerRequest / br.bytesPerRequest).toFixed(1) : '?'}× fewer with br), at ${br.rps} and ${gzip.rps} req/s vs ${rows[0]!.rps}`,
    fresh,
    `- request.completed lines the info server wrote during the first row: ${loggedLines} (captured stdout)`,
    `- server peak RSS of any one process over its rows: **${serverPeak} MB**`,
  ].join('\n')
  const mixedMd = mixed.length
    ? `\n## Reads while content changes (the mixed row, one worker, ${MIXED_SECONDS}s a phase)\n\n${mixedTable(mixed)}\n`
    : ''
  const md = `# Benchmark\n\n${new Date().toISOString()} · ${ITEMS} approved items, ${TAGS} tags · SQLite · ${GENERATOR}, ${CONNECTIONS} connections × ${DURATION}s (after 2s warm-up) · ${CPUS} CPUs · Node ${process.version} · npm start, LOG_LEVEL=info, stdout captured to a file, WEB_CONCURRENCY=1 unless a row says otherwise · seed ${seedSeconds}s · load average at start ${loadAtStart}, at end ${os.loadavg()[0]!.toFixed(1)} · total ${Math.round((Date.now() - startedAt) / 1000)}s\n\n${table}\n\n${ratios}\n${mixedMd}`
  process.stdout.write(`${md}\n`)
  mkdirSync(path.join(root, 'bench', 'results'), { recursive: true })
  writeFileSync(path.join(root, 'bench', 'results', process.env.BENCH_RESULT ?? 'latest.md'), md)
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    log(err instanceof Error ? err.stack ?? err.message : String(err))
    process.exit(1)
  })
