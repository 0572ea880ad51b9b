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
import { execSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'

import { progress } from '../scripts/progress'
import { firstWritesLine, mixedPhases, mixedTable, PHASES, serverGauges } from './mixed'
import type { ContentDto } from '../src/services/content'
import { adminToken, alternate, asWriter, base, buildIsStale, CONNECTIONS, CPUS, dbDir, DURATION, env, FRESHNESS_TRIALS, GENERATOR, ITEMS, log, logLines, meanOf, measure, measureWindow, MIXED_METRICS_TOKEN, MIXED_ROUNDS, MIXED_SECONDS, pathsFor, PORT, quantile, RAW_PORT, RAW_WORKERS_PORT, root, ROUNDS, runLoad, runMain, runOneAtATime, showProgress, start, STOCK_PORT, stop, TAGS, waitFor, WARN_PORT, WORKERS, WORKERS_PORT, writeResult, writerNote, type Row } from './harness'

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

  const apiToken = await adminToken(api)
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

  const ROWS = 10 + 3 * ROUNDS + 4 * ROUNDS + 2 * ROUNDS + (2 * PHASES.length - 1) * MIXED_ROUNDS
  const bar = progress('bench', ROWS, 'rows')
  showProgress(bar)
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
    ? await asWriter(() => mixedPhases({
        api,
        token: apiToken,
        tags: tagList,
        queries,
        words: GENERAL,
        seconds: MIXED_SECONDS,
        rounds: MIXED_ROUNDS,
        load: async (paths, seconds) => {
          const r = await measureWindow(`mixed, ${seconds}s`, pid, async () => undefined, () => runLoad({ url: base, cycle: paths }, seconds))
          return { rps: r.rps, p50: r.p50, p99: r.p99, unexpected: r.unexpected }
        },
        gauges: async () => serverGauges(await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${MIXED_METRICS_TOKEN}` } })).text()),
        log,
      }))
    : undefined
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
  showProgress(undefined)

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
    br.bytesPerRequest
      ? `- compressed answers: br ${br.bytesPerRequest} bytes, gzip ${gzip.bytesPerRequest} bytes vs ${rows[0]!.bytesPerRequest} plain (${(rows[0]!.bytesPerRequest / br.bytesPerRequest).toFixed(1)}× fewer with br), at ${br.rps} and ${gzip.rps} req/s vs ${rows[0]!.rps}`
      : `- compressed answers at ${br.rps} (br) and ${gzip.rps} (gzip) req/s vs ${rows[0]!.rps}; their sizes are measured under wrk only (${GENERATOR} here)`,
    fresh,
    `- request.completed lines the info server wrote during the first row: ${loggedLines} (captured stdout)`,
    `- server peak RSS of any one process over its rows: **${serverPeak} MB**`,
  ].join('\n')
  const mixedMd = mixed
    ? `\n## Reads while content changes (the mixed row, one worker, ${MIXED_SECONDS}s a phase; ${writerNote})\n\n${firstWritesLine(mixed.first)}\n\n${mixedTable(mixed.results)}\n`
    : ''
  const md = `# Benchmark\n\n${new Date().toISOString()} · ${ITEMS} approved items, ${TAGS} tags · SQLite · ${GENERATOR}, ${CONNECTIONS} connections × ${DURATION}s (after 2s warm-up) · ${CPUS} CPUs · Node ${process.version} · npm start, LOG_LEVEL=info, stdout captured to a file, WEB_CONCURRENCY=1 unless a row says otherwise · seed ${seedSeconds}s · load average at start ${loadAtStart}, at end ${os.loadavg()[0]!.toFixed(1)} · total ${Math.round((Date.now() - startedAt) / 1000)}s\n\n${table}\n\n${ratios}\n${mixedMd}`
  writeResult(md, 'latest.md')
}

runMain(main)
