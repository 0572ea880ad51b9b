/**
 * npm run bench: throughput and latency of the content API on 100,000 items, beside two
 * references measured in the same run on the same data: Payload's stock REST find (with an
 * admin session, served by stock `next start` in its own process, as Payload runs it, so its
 * memory is its own) and a bare node:http server returning a cached body (the ceiling).
 *
 * Every server runs as production does: `npm start`, LOG_LEVEL=info, its stdout captured to
 * a file as a process manager captures it, one worker unless a row says otherwise. Extra
 * rows, same run: GET /content with WEB_CONCURRENCY=2 (1 vs N workers), and GET /content at
 * LOG_LEVEL=warn against info, measured in alternating rounds on two servers (the logging
 * cost). Prints one markdown table and writes it to bench/results/latest.md. Not a test.
 *
 * Env knobs: BENCH_ITEMS (100000), BENCH_TAGS (2000), BENCH_DURATION seconds (10),
 * BENCH_CONNECTIONS (32), BENCH_PORT (3400), BENCH_WORKERS (2), BENCH_LOG_ROUNDS (4).
 */
import autocannon from 'autocannon'
import { execSync, spawn, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { progress, type Progress } from '../scripts/progress'
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
const INFO_PORT = PORT + 5
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2)
const LOG_ROUNDS = Number(process.env.BENCH_LOG_ROUNDS ?? 4)
const base = `http://127.0.0.1:${PORT}`
let bar: Progress | undefined
const log = (msg: string) => (bar ? bar.step(msg) : process.stderr.write(`[bench] ${msg}\n`))

const dbDir = path.join(os.tmpdir(), `curation-bench-${Date.now()}`)
mkdirSync(dbDir, { recursive: true })
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'production',
  NEXT_TELEMETRY_DISABLED: '1',
  DATABASE_URI: `file:${path.join(dbDir, 'bench.db')}`,
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

/** RSS of the biggest process in the tree rooted at pid (the server node process), in MB. */
function treeRssMb(pid: number): number {
  const parent = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch { /* exited */ }
  }
  const inTree = (p: number): boolean => p === pid || (parent.has(p) && p > 1 && inTree(parent.get(p)!))
  let max = 0
  for (const p of parent.keys()) {
    if (!inTree(p)) continue
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))
      if (m) max = Math.max(max, Number(m[1]) / 1024)
    } catch { /* exited */ }
  }
  return Math.round(max)
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

let rowsDone = 0

type Row = { name: string; rps: number; p50: number; p99: number; rssMb: number; non2xx: number }

async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  rssPid: number | undefined,
  expect304 = false,
  nextPath?: () => string,
): Promise<Row> {
  // nextPath: a fresh path per request (cold searches that no cache has seen).
  const requests = nextPath ? [{ setupRequest: (req: { path: string }) => ({ ...req, path: nextPath() }) }] : undefined
  // Warm-up so JIT and caches settle before the measured window. A generous timeout: the
  // stock REST row queues 32 requests of a few hundred ms each.
  // The server's peak RSS over the row (warm-up included), sampled four times a second.
  let peakRss = 0
  const sample = () => (peakRss = Math.max(peakRss, rssPid ? treeRssMb(rssPid) : 0))
  const sampler = setInterval(sample, 250)
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers, timeout: 30, requests })
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, timeout: 30, requests })
  clearInterval(sampler)
  sample()
  const ok = expect304 ? r['3xx'] ?? 0 : r['2xx'] ?? 0
  const row = {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    rssMb: peakRss,
    non2xx: r.requests.total - ok + (r.errors ?? 0) + (r.timeouts ?? 0),
  }
  log(`${name}: ${row.rps} rps, p50 ${row.p50} ms, p99 ${row.p99} ms, RSS ${row.rssMb} MB, unexpected ${row.non2xx}`)
  rowsDone += 1
  bar?.update(rowsDone)
  return row
}

/** No build, or a source file newer than it (the admin panel and Payload's REST run from it). */
function buildIsStale(): boolean {
  const buildId = path.join(root, '.next', 'BUILD_ID')
  if (!existsSync(buildId)) return true
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
  log(`seeded in ${seedSeconds}s`)

  // As production runs it (npm start: server.ts with its heap limit).
  const server = start('server-info', 'npm', ['start'])
  await waitFor(`${base}/api/v1/ready`, 300_000)
  log('server up (npm start, LOG_LEVEL=info, WEB_CONCURRENCY=1, stdout to a file)')

  // Samples for the parameterized rows.
  const first = (await (await fetch(`${base}/api/v1/content?limit=1`)).json()) as { data: Pick<ContentDto, 'slug' | 'tagSlugs' | 'group'>[] }
  const sample = first.data[0]!
  const tag = sample.tagSlugs[0]
  const group = sample.group
  const catalog = await fetch(`${base}/api/v1/catalog`)
  const etag = catalog.headers.get('etag')!

  const login = await fetch(`${base}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: env.BOOTSTRAP_ADMIN_EMAIL, password: env.BOOTSTRAP_ADMIN_PASSWORD }),
  })
  const loginBody = (await login.json().catch(() => ({}))) as { token?: string }
  if (!loginBody.token) log(`admin login failed (${login.status}); the Payload REST row will show errors`)
  const adminHeaders: Record<string, string> = loginBody.token ? { Authorization: `JWT ${loginBody.token}` } : {}

  const body = await (await fetch(`${base}/api/v1/content`)).text()
  const raw = start('ceiling', process.execPath, [
    '-e',
    `const b=Buffer.from(process.env.BODY);require('node:http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':b.length});s.end(b)}).listen(${RAW_PORT})`,
  ], { BODY: body })
  await waitFor(`http://127.0.0.1:${RAW_PORT}/`, 10_000)

  const ROWS = 13 + 2 * LOG_ROUNDS
  bar = progress('bench', ROWS, 'rows')
  const pid = server.pid!
  const rows: Row[] = []
  const api = `${base}/api/v1`
  const linesBefore = logLines('server-info')
  rows.push(await measure('GET /content (default page)', `${api}/content`, {}, pid))
  const loggedLines = logLines('server-info') - linesBefore
  rows.push(await measure('GET /content, tags + group filters', `${api}/content?tags=${tag}&group=${group}`, {}, pid))
  rows.push(await measure('GET /content?q=typescript (repeated)', `${api}/content?q=typescript`, {}, pid))
  const { GENERAL } = await import('../src/seed/seed')
  let n = 0
  const coldQuery = () => {
    n += 1
    const a = GENERAL[(n * 7919) % GENERAL.length]!
    const b = GENERAL[(n * 104_729 + Math.floor(n / GENERAL.length) * 31 + 13) % GENERAL.length]!
    return `/api/v1/content?q=${a}%20${b}`
  }
  rows.push(await measure('GET /content?q=, a new 2-word query every request', `${api}/content`, {}, pid, false, coldQuery))
  rows.push(await measure('GET /content?offset=9000', `${api}/content?offset=9000`, {}, pid))
  rows.push(await measure('GET /content/:slug', `${api}/content/${sample.slug}`, {}, pid))
  rows.push(await measure('GET /catalog', `${api}/catalog`, {}, pid))
  rows.push(await measure('GET /catalog with If-None-Match (304)', `${api}/catalog`, { 'If-None-Match': etag }, pid, true))

  // 1 vs N workers: the same server with WEB_CONCURRENCY=N (the first server idles meanwhile).
  const workers = start('server-workers', 'npm', ['start'], { PORT: String(WORKERS_PORT), WEB_CONCURRENCY: String(WORKERS) })
  await waitFor(`http://127.0.0.1:${WORKERS_PORT}/api/v1/ready`, 300_000)
  await new Promise((r) => setTimeout(r, 3000)) // the other workers fork once the first listens
  const workersApi = `http://127.0.0.1:${WORKERS_PORT}/api/v1`
  const workersRow = await measure(`GET /content (default page), WEB_CONCURRENCY=${WORKERS}`, `${workersApi}/content`, {}, workers.pid)
  rows.push(workersRow)
  rows.push(await measure(`GET /content, tags + group filters, WEB_CONCURRENCY=${WORKERS}`, `${workersApi}/content?tags=${tag}&group=${group}`, {}, workers.pid))
  await stop(workers)

  // The logging cost: two fresh servers, identical but for LOG_LEVEL (info, warn), each
  // serving only GET /content, in alternating rounds (the order flips every round), so drift
  // in the machine's load and the order fall on both alike. The first server is done.
  await stop(server)
  const info = start('server-info-compare', 'npm', ['start'], { PORT: String(INFO_PORT) })
  const warn = start('server-warn', 'npm', ['start'], { PORT: String(WARN_PORT), LOG_LEVEL: 'warn' })
  await waitFor(`http://127.0.0.1:${INFO_PORT}/api/v1/ready`, 300_000)
  await waitFor(`http://127.0.0.1:${WARN_PORT}/api/v1/ready`, 300_000)
  const infoRounds: Row[] = []
  const warnRounds: Row[] = []
  const infoRound = async (round: number) =>
    infoRounds.push(await measure(`GET /content, LOG_LEVEL=info (round ${round})`, `http://127.0.0.1:${INFO_PORT}/api/v1/content`, {}, info.pid))
  const warnRound = async (round: number) =>
    warnRounds.push(await measure(`GET /content, LOG_LEVEL=warn (round ${round})`, `http://127.0.0.1:${WARN_PORT}/api/v1/content`, {}, warn.pid))
  for (let round = 1; round <= LOG_ROUNDS; round++) {
    if (round % 2) {
      await infoRound(round)
      await warnRound(round)
    } else {
      await warnRound(round)
      await infoRound(round)
    }
  }
  await Promise.all([stop(info), stop(warn)])
  const mean = (rs: Row[], name: string): Row => ({
    name,
    rps: Math.round(rs.reduce((a, r) => a + r.rps, 0) / rs.length),
    p50: Math.round((rs.reduce((a, r) => a + r.p50, 0) / rs.length) * 10) / 10,
    p99: Math.round((rs.reduce((a, r) => a + r.p99, 0) / rs.length) * 10) / 10,
    rssMb: Math.max(...rs.map((r) => r.rssMb)),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
  })
  const infoMean = mean(infoRounds, `GET /content, LOG_LEVEL=info (fresh server; mean of ${LOG_ROUNDS} alternating rounds)`)
  const warnMean = mean(warnRounds, `GET /content, LOG_LEVEL=warn (comparison only; fresh server; mean of ${LOG_ROUNDS} alternating rounds)`)
  rows.push(infoMean, warnMean)

  // The reference runs as stock Payload does (next start), in its own process on the same
  // database, started only now so it takes no CPU from the rows above.
  const stockServer = start('payload-next-start', 'npx', ['next', 'start', '-p', String(STOCK_PORT)], { PORT: String(STOCK_PORT) })
  await waitFor(`http://127.0.0.1:${STOCK_PORT}/api/v1/ready`, 300_000)
  const stock = await measure(
    'Payload REST find, same page (admin session, stock `next start`)',
    `http://127.0.0.1:${STOCK_PORT}/api/content?limit=30&sort=-approvedAt&where[status][equals]=approved`,
    adminHeaders,
    stockServer.pid,
  )
  await stop(stockServer)
  rows.push(stock)
  const ceiling = await measure('node:http returning a cached body (ceiling)', `http://127.0.0.1:${RAW_PORT}/`, {}, raw.pid)
  rows.push(ceiling)
  bar.stop()
  bar = undefined

  const ours = rows[0]!
  const notModified = rows.find((r) => r.name.includes('304'))!
  const references = new Set([stock, ceiling])
  const serverPeak = Math.max(...rows.filter((r) => !references.has(r)).map((r) => r.rssMb))
  const table = [
    `| Scenario | req/s | p50 ms | p99 ms | peak RSS MB (largest process, sampled 4×/s) | unexpected status |`,
    `|---|---:|---:|---:|---:|---:|`,
    ...rows.map((r) => `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.rssMb || '—'} | ${r.non2xx} |`),
  ].join('\n')
  const ratios = [
    `- GET /content vs Payload REST find: **${(ours.rps / Math.max(stock.rps, 1)).toFixed(1)}×** throughput`,
    `- GET /content vs bare node:http ceiling: **${((ours.rps / Math.max(ceiling.rps, 1)) * 100).toFixed(0)}%**`,
    `- GET /catalog 304 vs bare node:http ceiling: **${((notModified.rps / Math.max(ceiling.rps, 1)) * 100).toFixed(0)}%**`,
    `- GET /content, WEB_CONCURRENCY=${WORKERS} vs 1: **${(workersRow.rps / Math.max(ours.rps, 1)).toFixed(2)}×**`,
    `- GET /content at LOG_LEVEL=info vs warn (alternating rounds): **${((infoMean.rps / Math.max(warnMean.rps, 1)) * 100).toFixed(0)}%** (${infoMean.rps} vs ${warnMean.rps} req/s; rounds info ${infoRounds.map((r) => r.rps).join(', ')} / warn ${warnRounds.map((r) => r.rps).join(', ')})`,
    `- request.completed lines the info server wrote during the first row: ${loggedLines} (captured stdout)`,
    `- server peak RSS of any one process over its rows: **${serverPeak} MB**`,
  ].join('\n')
  const md = `# Benchmark\n\n${new Date().toISOString()} · ${ITEMS} approved items, ${TAGS} tags · SQLite · ${CONNECTIONS} connections × ${DURATION}s (after 2s warm-up) · ${os.cpus().length} CPUs · Node ${process.version} · npm start, LOG_LEVEL=info, stdout captured to a file, WEB_CONCURRENCY=1 unless a row says otherwise · seed ${seedSeconds}s · load average at start ${loadAtStart}, at end ${os.loadavg()[0]!.toFixed(1)} (other work on the machine skews every row alike) · total ${Math.round((Date.now() - startedAt) / 1000)}s\n\n${table}\n\n${ratios}\n`
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
