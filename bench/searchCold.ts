/**
 * Cold text search latency on an existing SQLite database (e.g. the million items of
 * `npm run seed -- --content 1000000`): two-word queries whose words no query in the process
 * has asked before, through the content store's list read (ranking, total and the page's
 * rows; no HTTP), one at a time. Not a test.
 *
 *   npx tsx bench/searchCold.ts <db file>                     this build: one process
 *   npx tsx bench/searchCold.ts <db file> --against <tree>    this build and the build checked
 *                                                             out in <tree> (a git worktree),
 *                                                             alternating A B A B in fresh processes
 *
 * Env knobs: SEARCH_ROUNDS (4, with --against), SEARCH_QUERIES (400 per process, at most 460).
 * With --against, each process runs with production's heap flags (package.json's start).
 * Each process reads the search corpus first (not timed: it happens once per data version),
 * warms up on 40 queries of other words, then times SEARCH_QUERIES queries. Prints one JSON
 * line per process and, with --against, the medians of both builds.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import path from 'node:path'

import { serverNodeFlags } from '../scripts/serverCommand.mjs'

const [file, flag, tree] = process.argv.slice(2)
const QUERIES = Math.min(460, Number(process.env.SEARCH_QUERIES ?? 400))
const ROUNDS = Number(process.env.SEARCH_ROUNDS ?? 4)

type Result = { build: string; queries: number; p50: number; p90: number; p99: number; max: number; mean: number; rssMb: number; corpusMs: number }

const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

async function runHere(build: string): Promise<Result> {
  process.env.DATABASE_URI = `file:${file}`
  const { sqliteContentStore } = await import('../src/db/sqlite/contentStore')
  const { splitTerms } = await import('../src/services/contentQuery')
  const { GENERAL } = await import('../src/seed/seed')
  // Nothing writes during the run: one generation throughout (an older build reads its counter instead).
  const store = sqliteContentStore(file!, () => 'bench', () => ({ clock: () => 0, fresh: () => true, markedSince: () => [] }))
  const list = (q: string) =>
    store.listContent({
      statuses: ['approved'], includeInactive: false, text: splitTerms(q), sort: 'relevance', offset: 0, limit: 30, estimate: false,
    })
  let rss = 0
  const sample = () => (rss = Math.max(rss, process.memoryUsage().rss))
  // The corpus (row lengths, recency order) once, as the first search after a write reads it.
  let t = performance.now()
  await list(`${GENERAL[0]} ${GENERAL[1]}`)
  const corpusMs = performance.now() - t
  for (let i = 1; i < 40; i++) await list(`${GENERAL[2 * i]} ${GENERAL[2 * i + 1]}`)
  const times: number[] = []
  for (let i = 40; i < 40 + QUERIES; i++) {
    t = performance.now()
    const page = await list(`${GENERAL[2 * i]} ${GENERAL[2 * i + 1]}`)
    times.push(performance.now() - t)
    if (page.rows.length !== 30 || page.total < 1000) throw new Error(`unexpected page: ${page.rows.length} rows of ${page.total}`)
    sample()
  }
  const sorted = [...times].sort((a, b) => a - b)
  const round = (x: number) => Math.round(x * 100) / 100
  return {
    build, queries: times.length, p50: round(quantile(sorted, 0.5)), p90: round(quantile(sorted, 0.9)), p99: round(quantile(sorted, 0.99)),
    max: round(sorted.at(-1)!), mean: round(times.reduce((a, b) => a + b, 0) / times.length), rssMb: Math.round(rss / 2 ** 20), corpusMs: Math.round(corpusMs),
  }
}

function runIn(dir: string, build: string): Result {
  // The heap flags that build's production runs with (its package.json's start script).
  const flags = [...serverNodeFlags(dir), '--import', 'tsx']
  const out = execFileSync(process.execPath, [...flags, path.join(dir, 'bench', 'searchCold.ts'), file!, '--build', build], {
    cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'],
  })
  return JSON.parse(out.trim().split('\n').at(-1)!) as Result
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

if (!file) {
  process.stderr.write('usage: npx tsx bench/searchCold.ts <db file> [--against <worktree>]\n')
  process.exit(2)
} else if (flag === '--build') {
  process.stdout.write(`${JSON.stringify(await runHere(tree!))}\n`)
  process.exit(0)
} else if (flag === '--against') {
  const here = path.resolve(import.meta.dirname, '..')
  const other = path.resolve(tree!)
  copyFileSync(import.meta.filename, path.join(other, 'bench', 'searchCold.ts'))
  const results: Result[] = []
  for (let r = 0; r < ROUNDS; r++) {
    for (const [dir, build] of [[other, 'before'], [here, 'this']] as const) {
      const result = runIn(dir, build)
      results.push(result)
      process.stdout.write(`${JSON.stringify(result)}\n`)
    }
  }
  for (const build of ['before', 'this']) {
    const mine = results.filter((r) => r.build === build)
    const keys = ['p50', 'p90', 'p99', 'max', 'mean', 'rssMb'] as const
    process.stdout.write(`${JSON.stringify({ build, rounds: mine.length, medians: Object.fromEntries(keys.map((k) => [k, median(mine.map((r) => r[k]))])) })}\n`)
  }
} else {
  process.stdout.write(`${JSON.stringify(await runHere('this'))}\n`)
}
