/**
 * What every bench script shares: the settings (BENCH_* knobs, see bench/run.ts), the production
 * environment the servers run in (npm start, LOG_LEVEL=info, stdout captured to a file), starting
 * and stopping servers, the load generator (wrk, or autocannon), and a measured row (throughput,
 * latency, the server's CPU and peak RSS).
 */
import autocannon from 'autocannon'
import { execSync, spawn, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'

import type { Progress } from '../scripts/progress'

export const root = path.resolve(import.meta.dirname, '..')
export const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000)
export const TAGS = Number(process.env.BENCH_TAGS ?? 2_000)
export const DURATION = Number(process.env.BENCH_DURATION ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
export const PORT = Number(process.env.BENCH_PORT ?? 3400)
export const RAW_PORT = PORT + 1
export const STOCK_PORT = PORT + 2
export const WARN_PORT = PORT + 3
export const WORKERS_PORT = PORT + 4
export const RAW_WORKERS_PORT = PORT + 5
export const WORKERS = Number(process.env.BENCH_WORKERS ?? 2)
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
export const FRESHNESS_TRIALS = Number(process.env.BENCH_FRESHNESS_TRIALS ?? 20)
const WRK = '/usr/bin/wrk'
/**
 * BENCH_LOAD_NICE=N runs wrk at `nice -n N`: on a machine the server and its generator share, the
 * server then has first call on the cores, so what is left of a miss is the server's own (an
 * experiment's knob; a shape's reported figures are measured without it).
 */
const LOAD_NICE_N = Number(process.env.BENCH_LOAD_NICE ?? 0)
/** This process's niceness as it was started: the server's and wrk's. */
const STARTED_NICE = os.getPriority()
/**
 * wrk's `nice` prefix: BENCH_LOAD_NICE more than the bench was started with, whatever this
 * thread's niceness now (a child starts at the niceness of the thread that spawns it, and
 * `asWriter` raises this one's).
 */
const loadNice = (): string => {
  const by = STARTED_NICE + LOAD_NICE_N - os.getPriority()
  return by === 0 ? '' : `nice -n ${by} `
}

/** How much the mixed row's writer is raised above the server and wrk (niceness 10 less). */
const WRITER_RAISE = 10

/**
 * Runs `run` (the mixed row's phases) with this thread's priority raised, so the writes' latencies
 * are the server's: the writer stands for a client on a machine of its own, but here it shares two
 * cores with wrk and the server's workers, and on its turn to read an answer it waited for a core
 * for up to 238 ms (docs/benchmarks.md, *The writes' tail at 64 × 2*). wrk and the server keep
 * their niceness (./harness loadNice; the servers are started before). Linux sets a niceness per
 * thread: only this main thread, where the writer's requests run, is raised. Not with autocannon
 * (the load itself runs on this thread) or where raising is refused (it needs CAP_SYS_NICE): then
 * the writer runs as before, and the result says so.
 */
export async function asWriter<T>(run: () => Promise<T>): Promise<T> {
  if (GENERATOR !== 'wrk') return run()
  try {
    os.setPriority(STARTED_NICE - WRITER_RAISE)
  } catch (err) {
    writerNote = `the writer at the server's niceness (raising it was refused: ${(err as Error).message})`
    return run()
  }
  writerNote = `the writer at niceness ${STARTED_NICE - WRITER_RAISE}, the server and wrk at ${STARTED_NICE}${LOAD_NICE_N ? ` and ${STARTED_NICE + LOAD_NICE_N}` : ''}`
  try {
    return await run()
  } finally {
    os.setPriority(STARTED_NICE)
  }
}

/** How the last `asWriter` ran the writer, for a result's header. */
export let writerNote = 'the writer at the server\'s niceness'
export const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 30)
export const MIXED_ROUNDS = Number(process.env.BENCH_MIXED_ROUNDS ?? 1)
export const MIXED_METRICS_TOKEN = 'bench-metrics-token-0123456789'
export const GENERATOR = process.env.BENCH_LOAD ?? (existsSync(WRK) ? 'wrk' : 'autocannon')
/** The generator as a result's header names it. */
export const GENERATOR_NAMED = LOAD_NICE_N ? `${GENERATOR} at nice ${LOAD_NICE_N}` : GENERATOR
// Without wrk the load runs in the bench's own process, which takes more of the machine: said
// before anything runs, since its figures are not comparable with a wrk run's.
if (GENERATOR === 'autocannon' && !process.env.BENCH_LOAD) {
  console.error(`[bench] ${WRK} not found: the load generator is autocannon, in this process, which takes more of the machine than wrk; figures are not comparable with wrk runs (apt-get install wrk)`)
}
const CLOCK_TICKS = Number(execSync('getconf CLK_TCK').toString().trim()) || 100
export const CPUS = os.cpus().length
export const base = `http://127.0.0.1:${PORT}`
let bar: Progress | undefined
/** Rows done and log lines go to this bar while one is shown (undefined: to stderr). */
export function showProgress(b: Progress | undefined): void {
  bar = b
}
export const log = (msg: string) => (bar ? bar.step(msg) : process.stderr.write(`[bench] ${msg}\n`))

export const dbDir = path.join(os.tmpdir(), `curation-bench-${Date.now()}`)
mkdirSync(dbDir, { recursive: true })
export const env: NodeJS.ProcessEnv = {
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
export const logDir = path.join(dbDir, 'logs')
mkdirSync(logDir, { recursive: true })

const children: ChildProcess[] = []
function cleanup() {
  for (const c of children) if (c.pid && c.exitCode === null) try { process.kill(-c.pid, 'SIGTERM') } catch { /* gone */ }
  rmSync(dbDir, { recursive: true, force: true })
}
process.on('exit', cleanup)
process.on('SIGINT', () => process.exit(130))

/** Every process under (and including) pid, with its CPU ticks so far and RSS in MB. */
export function processTree(pid: number): { pid: number; ticks: number; rssMb: number }[] {
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

export async function waitFor(url: string, timeoutMs: number): Promise<void> {
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
export function start(name: string, cmd: string, args: string[], extraEnv: Record<string, string> = {}): ChildProcess {
  const out = openSync(path.join(logDir, `${name}.log`), 'a')
  const child = spawn(cmd, args, { cwd: root, env: { ...env, ...extraEnv }, detached: true, stdio: ['ignore', out, 'inherit'] })
  closeSync(out)
  children.push(child)
  return child
}

export function stop(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null) return Promise.resolve()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch { /* gone */ }
  return exited
}

/** Lines a server wrote to its captured stdout (request.completed lines, mostly). */
export function logLines(name: string): number {
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
 * `connections`: the load generator's (BENCH_CONNECTIONS unless given).
 */
export type Load = { url: string; headers?: Record<string, string>; expect304?: boolean; paths?: { list: string[]; next: number }; cycle?: string[]; connections?: number }

/** The next `count` unused paths of a load (each path is asked once in the whole run). */
export function takePaths(load: Load, count: number): string[] {
  const p = load.paths!
  const taken = p.list.slice(p.next, p.next + count)
  p.next += count
  if (taken.length < count) throw new Error('the bench ran out of unused paths')
  return taken
}

/** More than a run of this many seconds can ask for. */
export const pathsFor = (seconds: number) => seconds * 4000
export type LoadResult = { rps: number; p50: number; p99: number; unexpected: number; bytesPerRequest: number; generatorTicks: number }

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
  const args = ['-t1', `-c${load.connections ?? CONNECTIONS}`, `-d${seconds}s`, '--latency', '--timeout', '30s']
  for (const [k, v] of Object.entries(load.headers ?? {})) args.push('-H', `${k}: ${v}`)
  if (load.paths) args.push('-s', pathsScript(takePaths(load, pathsFor(seconds))))
  else if (load.cycle) args.push('-s', pathsScript(load.cycle))
  args.push(load.url)
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')
  const script = `${loadNice()}${WRK} ${quoted}; read -a s < /proc/$$/stat; echo "CHILD_TICKS $(( s[15] + s[16] ))"`
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
  const r = await autocannon({ url: load.url, connections: load.connections ?? CONNECTIONS, duration: seconds, headers: load.headers, timeout: 30, requests })
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

export const runLoad = (load: Load, seconds: number) => (GENERATOR === 'wrk' ? runWrk(load, seconds) : runAutocannon(load, seconds))

/**
 * Each of `paths` once, one request at a time on one kept-alive connection (no queue): the
 * latency one user meets. No Accept-Encoding (a plain answer, as the other rows get it); the
 * time runs from the request to the answer's last byte. Bytes per answer count the body only
 * (wrk's rows count the headers too, ~700 bytes).
 */
export async function runOneAtATime(base: string, paths: string[]): Promise<LoadResult> {
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

export type Row = {
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

export const measure = (name: string, load: Load, serverPid: number | undefined): Promise<Row> =>
  measureWindow(name, serverPid, () => runLoad(load, 2), () => runLoad(load, DURATION))

/** A row: `warmUp` (so JIT and caches settle), then `run` measured with the server's CPU and peak RSS. */
export async function measureWindow(name: string, serverPid: number | undefined, warmUp: () => Promise<unknown>, run: () => Promise<LoadResult>): Promise<Row> {
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
export function meanOf(rs: Row[], name: string): Row {
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
export async function alternate(sides: { name: string; load: Load; pid: number | undefined }[], rounds: number): Promise<Row[][]> {
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
export function buildIsStale(): boolean {
  const buildId = path.join(root, '.next', 'BUILD_ID')
  if (!existsSync(buildId) || !existsSync(path.join(root, 'dist', 'server.js'))) return true
  const built = statSync(buildId).mtimeMs
  const newer = (p: string): boolean => {
    const st = statSync(p)
    if (st.isDirectory()) return readdirSync(p).some((e) => newer(path.join(p, e)))
    return /\.(ts|tsx|mjs|js|json)$/.test(p) && st.mtimeMs > built
  }
  return ['app', 'collections', 'endpoints', 'access', 'src', 'server', 'server.ts', 'payload.config.ts', 'package.json']
    .map((p) => path.join(root, p))
    .some((p) => existsSync(p) && newer(p))
}

/** The bench admin's access token from `api`'s login (undefined when it could not sign in). */
export async function adminToken(api: string): Promise<string | undefined> {
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: env.BOOTSTRAP_ADMIN_EMAIL, password: env.BOOTSTRAP_ADMIN_PASSWORD }),
  })
  return ((await login.json().catch(() => ({}))) as { data?: { accessToken?: string } }).data?.accessToken
}

/** Prints a run's markdown and writes it to bench/results/<BENCH_RESULT, else `name`>. */
export function writeResult(md: string, name: string): void {
  process.stdout.write(`${md}\n`)
  mkdirSync(path.join(root, 'bench', 'results'), { recursive: true })
  writeFileSync(path.join(root, 'bench', 'results', process.env.BENCH_RESULT ?? name), md)
}

/** Runs a bench script's main: exit 0 when done, 1 with its error logged. */
export function runMain(main: () => Promise<void>): void {
  main()
    .then(() => process.exit(0))
    .catch((err) => {
      log(err instanceof Error ? (err.stack ?? err.message) : String(err))
      process.exit(1)
    })
}

export const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
