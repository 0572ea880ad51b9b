/**
 * npm run bench:caches: what each cache earns. One server with every cache (A) and, for each
 * cache in turn, a second on the same database started with that cache switched off
 * (CACHES_OFF, src/platform/metrics) (B), measured in alternating rounds (A B, B A, …) in two
 * load shapes: the read mix alone, and the read mix beside one submission and one approval a
 * second (./mixed's writers). The read mix is the mixed row's (60% newest page, 20% a tag page,
 * 20% a two-word search of 100) with second and third pages, item pages, the catalog and /meta
 * added, so every cache has readers. A row reports B's throughput and p99 against A's in the same rounds, and checks
 * the switch: B's cache answered no lookup, A's answered some (else the row measured nothing and
 * says so). A last row switches every listed cache off at once. Prints one markdown table and
 * writes it to bench/results/caches.md (BENCH_RESULT). Not a test.
 *
 * Env knobs: bench/run.ts's (BENCH_ITEMS, BENCH_CONNECTIONS, BENCH_PORT, BENCH_LOAD), and
 * BENCH_CACHE_SECONDS (6) a measured window, BENCH_CACHE_ROUNDS (2), BENCH_CACHES (a comma list:
 * only these caches).
 */
import { execSync, type ChildProcess } from 'node:child_process'
import os from 'node:os'

import { progress } from '../scripts/progress'
import { adminToken, buildIsStale, CONNECTIONS, CPUS, env, GENERATOR, ITEMS, log, measureWindow, MIXED_METRICS_TOKEN, PORT, root, runLoad, runMain, showProgress, start, stop, TAGS, waitFor, writeResult, type Row } from './harness'
import { readMix, writers, type MixedPhase } from './mixed'

/** Every cache a request on SQLite can meet (docs/architecture.md's table; the corpus is the ranker's index, not a cache to go without). */
const CACHES = [
  'content_answers',
  'search_answers',
  'content_item_answers',
  'catalog',
  'branding_answers',
  'branding_document',
  'list_totals',
  'row_records',
  'search_orders',
  'search_terms',
  'search_match_groups',
]
const SECONDS = Number(process.env.BENCH_CACHE_SECONDS ?? 6)
const ROUNDS = Number(process.env.BENCH_CACHE_ROUNDS ?? 2)
const ONLY = process.env.BENCH_CACHES?.split(',').map((c) => c.trim()).filter(Boolean)
const OFF_PORT = PORT + 6
const WRITES: MixedPhase = { name: '1 submission + 1 approval a second', submissionsPerSecond: 1, approvalsPerSecond: 1 }

type Side = { name: string; base: string; pid: number }
type Shape = 'reads' | 'writes'
type Measured = { rps: number; p99: number; unexpected: number }
type CacheRow = { off: string; shapes: Record<Shape, { on: Measured; off: Measured }>; hitsOn: number; hitsOff: number }

/** Lookups a cache answered so far on a server, by its /metrics (its moderators' copy `_all` beside it). */
async function hitsOf(base: string, caches: string[]): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${MIXED_METRICS_TOKEN}` } })).text()
  let hits = 0
  for (const cache of caches) {
    for (const name of [cache, `${cache}_all`]) {
      const m = new RegExp(`^cache_lookups_total\\{cache="${name}",result="hit"\\} (\\d+)`, 'm').exec(text)
      hits += Number(m?.[1] ?? 0)
    }
  }
  return hits
}

async function main() {
  const startedAt = Date.now()
  if (buildIsStale()) {
    log('building (npm run build)…')
    execSync('npm run build', { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })
  }
  log(`seeding ${ITEMS} items and ${TAGS} tags into a fresh SQLite database…`)
  execSync(`npx tsx scripts/seed.ts --tags ${TAGS} --content ${ITEMS}`, { cwd: root, env: { ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] })

  const onServer = start('caches-on', 'npm', ['start'])
  const on: Side = { name: 'every cache', base: `http://127.0.0.1:${PORT}`, pid: onServer.pid! }
  await waitFor(`${on.base}/api/v1/ready`, 300_000)
  const api = `${on.base}/api/v1`
  const token = await adminToken(api)
  if (!token) throw new Error('the bench admin could not sign in')
  const tags = ((await (await fetch(`${api}/tags?limit=20`)).json()) as { data: { slug: string }[] }).data.map((t) => t.slug)
  const { GENERAL } = await import('../src/seed/seed')
  const queries = Array.from({ length: 100 }, (_, i) => `${GENERAL[(i * 37) % GENERAL.length]} ${GENERAL[(i * 53 + 11) % GENERAL.length]}`)
  const slugs = ((await (await fetch(`${api}/content?limit=50&offset=30`)).json()) as { data: { slug: string }[] }).data.map((c) => c.slug)
  // Second and third pages, as a reader scrolls: the newest list, a tag's, a search's.
  const pages = Array.from({ length: 60 }, (_, i) => {
    const offset = 30 * (1 + (i % 2))
    if (i % 3 === 0) return `/api/v1/content?offset=${offset}`
    if (i % 3 === 1) return `/api/v1/content?tags=${tags[i % tags.length]}&offset=${offset}`
    return `/api/v1/content?q=${queries[i % queries.length]!.replace(' ', '%20')}&offset=${offset}`
  })
  const mix = [
    ...readMix(tags, queries),
    ...pages,
    ...slugs.map((s) => `/api/v1/content/${s}`),
    ...Array.from({ length: 25 }, () => '/api/v1/catalog'),
    ...Array.from({ length: 25 }, () => '/api/v1/meta'),
  ]

  /** One measured window of a shape on a side; the writes go to the side measured. */
  const window = async (side: Side, shape: Shape, round: number): Promise<Measured> => {
    const w = shape === 'writes' ? writers({ api: `${side.base}/api/v1`, token, words: GENERAL }, WRITES, round) : undefined
    const row: Row = await measureWindow(`${side.name}, ${shape} (round ${round})`, side.pid, async () => undefined, () => runLoad({ url: side.base, cycle: mix }, SECONDS))
    const writes = w?.stop()
    if (writes?.failedWrites) log(`${writes.failedWrites} writes failed`)
    return { rps: row.rps, p99: row.p99, unexpected: row.unexpected }
  }

  const configs = [...(ONLY ?? CACHES).map((c) => [c]), ...(ONLY ? [] : [CACHES])]
  const bar = progress('bench:caches', configs.length * ROUNDS * 4, 'windows')
  showProgress(bar)
  const rows: CacheRow[] = []
  for (const caches of configs) {
    const offName = caches.length > 1 ? 'all of the above' : caches[0]!
    const offServer: ChildProcess = start(`caches-off-${caches.length > 1 ? 'all' : caches[0]}`, 'npm', ['start'], { PORT: String(OFF_PORT), CACHES_OFF: caches.join(',') })
    const off: Side = { name: `${offName} off`, base: `http://127.0.0.1:${OFF_PORT}`, pid: offServer.pid! }
    await waitFor(`${off.base}/api/v1/ready`, 300_000)
    // Warm both (JIT, the corpus, the words), then count hits from here on.
    for (const side of [on, off]) await runLoad({ url: side.base, cycle: mix }, 3)
    const before = { on: await hitsOf(on.base, caches), off: await hitsOf(off.base, caches) }
    const sums: Record<Shape, { on: Measured[]; off: Measured[] }> = { reads: { on: [], off: [] }, writes: { on: [], off: [] } }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const shape of ['reads', 'writes'] as const) {
        const order = (round + (shape === 'writes' ? 1 : 0)) % 2 === 0 ? [on, off] : [off, on]
        for (const side of order) sums[shape][side === on ? 'on' : 'off'].push(await window(side, shape, round))
      }
    }
    const hitsOn = (await hitsOf(on.base, caches)) - before.on
    const hitsOff = (await hitsOf(off.base, caches)) - before.off
    await stop(offServer)
    const mean = (ms: Measured[]): Measured => ({
      rps: Math.round(ms.reduce((a, m) => a + m.rps, 0) / ms.length),
      p99: Math.round((ms.reduce((a, m) => a + m.p99, 0) / ms.length) * 10) / 10,
      unexpected: ms.reduce((a, m) => a + m.unexpected, 0),
    })
    const row: CacheRow = {
      off: offName,
      shapes: { reads: { on: mean(sums.reads.on), off: mean(sums.reads.off) }, writes: { on: mean(sums.writes.on), off: mean(sums.writes.off) } },
      hitsOn,
      hitsOff,
    }
    log(`${offName} off: reads ${row.shapes.reads.off.rps} vs ${row.shapes.reads.on.rps} rps, under writes ${row.shapes.writes.off.rps} vs ${row.shapes.writes.on.rps}; hits ${hitsOff} off, ${hitsOn} on`)
    rows.push(row)
  }
  await stop(onServer)
  bar.stop()
  showProgress(undefined)

  const pct = (a: number, b: number) => `${Math.round((a / Math.max(b, 1)) * 100)}%`
  const cell = (s: { on: Measured; off: Measured }) => `${s.off.rps} / ${s.on.rps} (**${pct(s.off.rps, s.on.rps)}**) | ${s.off.p99} / ${s.on.p99}`
  const table = [
    '| Switched off | reads alone: req/s off / on (ratio) | p99 ms off / on | beside 1 submission + 1 approval a second: req/s off / on (ratio) | p99 ms off / on | hits while measured: off / on | unexpected |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const check = r.hitsOff > 0 ? ' (the switch failed)' : r.hitsOn === 0 ? ' (never asked: measures nothing)' : ''
      const unexpected = r.shapes.reads.on.unexpected + r.shapes.reads.off.unexpected + r.shapes.writes.on.unexpected + r.shapes.writes.off.unexpected
      return `| ${r.off} | ${cell(r.shapes.reads)} | ${cell(r.shapes.writes)} | ${r.hitsOff} / ${r.hitsOn}${check} | ${unexpected} |`
    }),
  ].join('\n')
  const md = `# What each cache earns\n\n${new Date().toISOString()} · ${ITEMS} approved items, ${TAGS} tags · SQLite · ${GENERATOR}, ${CONNECTIONS} connections, ${SECONDS}s windows × ${ROUNDS} rounds per shape and side, alternating · ${CPUS} CPUs · Node ${process.version} · npm start, LOG_LEVEL=info, one worker · read mix: the mixed row's 500 paths + 60 second and third pages (newest, a tag's, a search's) + 50 item pages + 25 /catalog + 25 /meta · load average at end ${os.loadavg()[0]!.toFixed(1)} · total ${Math.round((Date.now() - startedAt) / 1000)}s\n\n${table}\n`
  writeResult(md, 'caches.md')
}

runMain(main)
