/**
 * The mixed row of `npm run bench`: reads while content changes, as a busy deployment runs. One
 * read mix under the load generator (60% the newest page, 20% a tag's page, 20% a two-word search
 * from a fixed set of 100 queries; every path asked first, so the phases start warm), in phases
 * that alternate the writes beside it: none, one submission a second, one submission and one
 * approval a second (approvals spread half a period after; then each approved as soon as it is
 * answered; then with descriptions), ten submissions a second, and hostile requests (./hostile: the largest
 * inputs the limits allow of the requests that once held the loop for seconds, four a second,
 * counted as the phase's writes; a "failed" one is one not refused with a 4xx). Each phase reports the reads' req/s, p50 and p99,
 * the server's longest event-loop delay over the phase (its own nodejs_eventloop_lag_max_seconds,
 * reset by the scrape before the phase), the main thread's CPU, its wait for a core and the
 * hypervisor's steal in its own monitor's longest delay, and the longest delay less those two
 * (src/platform/loopHold: the process's own part, which the targets hold), and the writes' own latency
 * (as the writer saw it, and the server's p99 beside: its answers' meta.durationMs); and its throughput
 * against a no-write window of the same length run just before it (a machine's capacity drifts by
 * more than the effect over the minutes a round takes: a round's no-write phase read 29,770 and
 * 24,727 req/s four minutes apart). Beside the delay, the phase's major collections (their number
 * and their pauses' total, from prom-client's nodejs_gc_duration_seconds): a collection that lands
 * in a turn already full is most of a long delay. Before the phases, the read mix is asked once and
 * a fresh server's first writes are made and reported on their own (firstWrites), so the phases
 * start warm; the callers run the phases with the writer's thread raised (./harness asWriter).
 */
import { HOSTILE_REQUESTS, sendHostile } from './hostile'

export type PhaseLoad = { rps: number; p50: number; p99: number; unexpected: number }

export type MixedPhase = {
  name: string
  submissionsPerSecond: number
  approvalsPerSecond: number
  /** Hostile requests a second (./hostile), in turn. */
  hostilePerSecond?: number
  /** Each submission approved as soon as its answer arrives (else: approvals spread half a period after, of the one before). */
  approveAtOnce?: boolean
  /** Submissions carry a description of ~60 words (new words for the search corpus to follow). */
  described?: boolean
}

export const PHASES: MixedPhase[] = [
  { name: 'no writes', submissionsPerSecond: 0, approvalsPerSecond: 0 },
  { name: '1 submission a second', submissionsPerSecond: 1, approvalsPerSecond: 0 },
  { name: '1 submission + 1 approval a second', submissionsPerSecond: 1, approvalsPerSecond: 1 },
  { name: '1 submission a second, approved as soon as it is answered', submissionsPerSecond: 1, approvalsPerSecond: 0, approveAtOnce: true },
  { name: '1 described submission + 1 approval a second', submissionsPerSecond: 1, approvalsPerSecond: 1, described: true },
  { name: '10 submissions a second', submissionsPerSecond: 10, approvalsPerSecond: 0 },
  { name: '4 hostile requests a second (largest inputs; counted as writes)', submissionsPerSecond: 0, approvalsPerSecond: 0, hostilePerSecond: 4 },
]

/** What one scrape of the server's /metrics says: its longest loop delay since the last scrape, and its major collections so far. */
export type ServerGauges = { stallMs: number; stallCpuMs: number; stallCoreWaitMs: number; stallStolenMs: number; stallOwnMs: number; majorGcs: number; majorGcSeconds: number }

export type MixedResult = PhaseLoad & {
  phase: string
  round: number
  stallMs: number
  /** The main thread's CPU within the longest delay the server's own monitor saw (src/platform/loopHold). */
  stallCpuMs: number
  /** The main thread's wait for a core within that delay (Linux's scheduler statistics). */
  stallCoreWaitMs: number
  /** The time the hypervisor took from the CPUs within that delay (/proc/stat's steal; 0 on bare metal). */
  stallStolenMs: number
  /** The longest delay less its wait for a core and its stolen time: the server's own part, which the loop target holds. */
  stallOwnMs: number
  /** Reads' req/s in the no-write window just before this phase (the phase's baseline), when one ran. */
  baselineRps?: number
  majorGcs: number
  majorGcMs: number
  writes: number
  writeP50: number
  writeP99: number
  /** The submissions' and approvals' p99 as the server timed them (its answer's meta.durationMs): the rest of a write's latency is the way there and back. */
  writeServerP99: number
  failedWrites: number
}

type Options = {
  api: string
  token: string
  /** Tag slugs for the tag pages, and the 100 two-word queries. */
  tags: string[]
  queries: string[]
  /** Words for described submissions (the seed's general vocabulary). */
  words: readonly string[]
  seconds: number
  rounds: number
  /** Runs the load generator over `paths` (cycled) for `seconds`. */
  load(paths: string[], seconds: number): Promise<PhaseLoad>
  /** The server's gauges; each call resets its longest-delay histogram. */
  gauges(): Promise<ServerGauges>
  log(msg: string): void
}

/** The read mix, 60/20/20, in a fixed shuffled order (wrk cycles through it). */
export function readMix(tags: string[], queries: string[]): string[] {
  const paths: string[] = []
  for (let i = 0; i < 300; i++) paths.push('/api/v1/content')
  for (let i = 0; i < 100; i++) paths.push(`/api/v1/content?tags=${tags[i % tags.length]}`)
  for (let i = 0; i < 100; i++) paths.push(`/api/v1/content?q=${queries[i % queries.length]!.replace(' ', '%20')}`)
  // A fixed shuffle (the same order every run).
  let seed = 42
  for (let i = paths.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    const j = seed % (i + 1)
    ;[paths[i], paths[j]] = [paths[j]!, paths[i]!]
  }
  return paths
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN)

/** A submission's description: ~60 words of the seed's general vocabulary, different for each `n`. */
function description(words: readonly string[], n: number): string {
  return Array.from({ length: 60 }, (_, i) => words[(n * 7919 + i * 104_729) % words.length]).join(' ')
}

/** The writers of one phase: submissions (and approvals of the last submissions) at their rates, each timed. */
export function writers(o: Pick<Options, 'api' | 'token' | 'words'>, phase: MixedPhase, round: number) {
  const times: number[] = []
  /** Each submission's and approval's time in the server's handler (its answer's meta.durationMs). */
  const serverTimes: number[] = []
  let failed = 0
  let n = 0
  const submitted: string[] = []
  /** The write's answer body, timed to its last byte; undefined when it failed. */
  const timed = async (f: () => Promise<Response>): Promise<unknown> => {
    const t = performance.now()
    try {
      const res = await f()
      const body: unknown = await res.json().catch(() => undefined)
      const served = (body as { meta?: { durationMs?: unknown } } | undefined)?.meta?.durationMs
      if (typeof served === 'number') serverTimes.push(served)
      if (!res.ok) failed += 1
      return res.ok ? body : undefined
    } catch {
      failed += 1
      return undefined
    } finally {
      times.push(performance.now() - t)
    }
  }
  const post = (path: string, body?: unknown) =>
    fetch(`${o.api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${o.token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const submit = async () => {
    n += 1
    const title = `Mixed round ${round} ${phase.submissionsPerSecond}/s item ${n} ${Date.now()}`
    const url = `https://example.com/mixed/${round}/${Date.now()}/${n}`
    const item = phase.described ? { title, url, description: description(o.words, n) } : { title, url }
    const body = (await timed(() => post('/content/submit', item))) as { data?: { slug?: string } } | undefined
    const slug = body?.data?.slug
    if (slug && phase.approveAtOnce) await timed(() => post(`/content/${slug}/approve`))
    else if (slug) submitted.push(slug)
  }
  const approve = async () => {
    const slug = submitted.shift()
    if (slug) await timed(() => post(`/content/${slug}/approve`))
  }
  const timers: NodeJS.Timeout[] = []
  if (phase.submissionsPerSecond > 0) timers.push(setInterval(() => void submit(), 1000 / phase.submissionsPerSecond))
  // Approvals half a period after the submissions, of the item submitted before.
  if (phase.approvalsPerSecond > 0) setTimeout(() => timers.push(setInterval(() => void approve(), 1000 / phase.approvalsPerSecond)), 500 / phase.approvalsPerSecond)
  if (phase.hostilePerSecond) {
    const base = o.api.replace(/\/api\/v1$/, '')
    let next = 0
    const hostile = async () => {
      const request = HOSTILE_REQUESTS[next++ % HOSTILE_REQUESTS.length]!
      const t = performance.now()
      const status = await sendHostile(base, request)
      times.push(performance.now() - t)
      // Refused as it should be: its own 4xx (a 431 for a header block past Node's limit is as good a refusal).
      if (status !== request.status && !(status >= 400 && status < 500)) failed += 1
    }
    timers.push(setInterval(() => void hostile(), 1000 / phase.hostilePerSecond))
  }
  return {
    submit,
    stop() {
      for (const t of timers) clearInterval(t)
      const sorted = times.sort((a, b) => a - b)
      const served = serverTimes.sort((a, b) => a - b)
      return {
        writes: times.length,
        writeP50: quantile(sorted, 0.5),
        writeP99: quantile(sorted, 0.99),
        writeServerP99: quantile(served, 0.99),
        failedWrites: failed,
      }
    },
    /** The slowest write so far, as the writer and as the server saw it. */
    slowest() {
      const most = (v: number[]) => (v.length ? Math.max(...v) : NaN)
      return { slowestMs: most(times), slowestServerMs: most(serverTimes) }
    },
  }
}

/** What a fresh server's first writes took (the slowest, as the writer and as the server saw it). */
export type FirstWrites = { writes: number; slowestMs: number; slowestServerMs: number; failedWrites: number }

const FIRST_WRITES_AT_ONCE = 4

/**
 * A fresh server's first writes, before the phases: four submissions at once (on as many
 * connections, so every worker takes some), each approved as soon as it is answered. A worker's
 * first write runs code no request of its has run yet (the slowest write of a phase was a worker's
 * first in most runs, 46-110 ms in the server; docs/benchmarks.md, *The writes' tail at 64 × 2*):
 * like the reads, warmed before the phases, and reported, not held to the targets.
 */
async function firstWrites(o: Pick<Options, 'api' | 'token' | 'words'>): Promise<FirstWrites> {
  const w = writers(o, { name: 'first writes', submissionsPerSecond: 0, approvalsPerSecond: 0, approveAtOnce: true }, 0)
  await Promise.all(Array.from({ length: FIRST_WRITES_AT_ONCE }, () => w.submit()))
  const { writes, failedWrites } = w.stop()
  return { writes, failedWrites, ...w.slowest() }
}

/** The first writes as a result's line. */
export const firstWritesLine = (f: FirstWrites): string =>
  `A fresh server's first writes, before the phases (${f.writes}: ${FIRST_WRITES_AT_ONCE} submissions at once, each approved as soon as it was answered; not held to the targets): the slowest **${f.slowestMs.toFixed(0)} ms** (${f.slowestServerMs.toFixed(0)} ms in the server), ${f.failedWrites} failed.`

export async function mixedPhases(o: Options): Promise<{ first: FirstWrites; results: MixedResult[] }> {
  const paths = readMix(o.tags, o.queries)
  o.log('mixed: warming the read mix')
  await o.load(paths, 5)
  const first = await firstWrites(o)
  o.log(`mixed: ${firstWritesLine(first).replaceAll('**', '')}`)
  const results: MixedResult[] = []
  for (let round = 1; round <= o.rounds; round++) {
    for (const phase of PHASES) {
      // The phase's own baseline, just before it: the same read mix, no writes.
      const baselineRps = phase === PHASES[0] ? undefined : (await o.load(paths, o.seconds)).rps
      const before = await o.gauges() // resets the server's histogram
      const w = writers(o, phase, round)
      const load = await o.load(paths, o.seconds)
      const writes = w.stop()
      const after = await o.gauges()
      const gc = { majorGcs: after.majorGcs - before.majorGcs, majorGcMs: (after.majorGcSeconds - before.majorGcSeconds) * 1000 }
      const stall = { stallMs: after.stallMs, stallCpuMs: after.stallCpuMs, stallCoreWaitMs: after.stallCoreWaitMs, stallStolenMs: after.stallStolenMs, stallOwnMs: after.stallOwnMs }
      const r: MixedResult = { phase: phase.name, round, ...load, ...stall, baselineRps, ...gc, ...writes }
      o.log(`mixed ${round}/${o.rounds}, ${phase.name}: ${r.rps} rps${baselineRps === undefined ? '' : ` (${baselineRps} just before)`}, p50 ${r.p50} ms, p99 ${r.p99} ms, stall ${r.stallMs.toFixed(0)} ms (CPU in it ${r.stallCpuMs.toFixed(0)} ms, waiting for a core ${r.stallCoreWaitMs.toFixed(0)} ms, stolen ${r.stallStolenMs.toFixed(0)} ms; own ${r.stallOwnMs.toFixed(0)} ms), ${r.majorGcs} major GCs (${r.majorGcMs.toFixed(0)} ms), writes ${r.writes} (p50 ${r.writeP50.toFixed(0)}, p99 ${r.writeP99.toFixed(0)} ms, the server's p99 ${r.writeServerP99.toFixed(0)} ms, ${r.failedWrites} failed)`)
      results.push(r)
      // Let the phase's follow-ups (thumbnails, notifications) finish before the next one.
      await new Promise((r) => setTimeout(r, 2000))
    }
  }
  return { first, results }
}

/** The gauges in a /metrics text (prom-client's exposition format). */
export function serverGauges(metrics: string): ServerGauges {
  const value = (pattern: RegExp, absent = NaN) => Number(pattern.exec(metrics)?.[1] ?? absent)
  return {
    stallMs: value(/^nodejs_eventloop_lag_max_seconds ([\d.e+-]+)$/m) * 1000,
    stallCpuMs: value(/^nodejs_eventloop_delay_longest_cpu_seconds ([\d.e+-]+)$/m) * 1000,
    stallCoreWaitMs: value(/^nodejs_eventloop_delay_longest_core_wait_seconds ([\d.e+-]+)$/m) * 1000,
    // Absent from a server older than the steal's gauge: read as none.
    stallStolenMs: value(/^nodejs_eventloop_delay_longest_stolen_seconds ([\d.e+-]+)$/m, 0) * 1000,
    stallOwnMs: value(/^nodejs_eventloop_delay_longest_own_seconds ([\d.e+-]+)$/m) * 1000,
    // No major collection yet: prom-client has no line for the kind until its first.
    majorGcs: value(/^nodejs_gc_duration_seconds_count\{kind="major"\} ([\d.e+-]+)$/m, 0),
    majorGcSeconds: value(/^nodejs_gc_duration_seconds_sum\{kind="major"\} ([\d.e+-]+)$/m, 0),
  }
}

/** A phase's reads against its baseline: the no-write window just before it, else its round's no-write phase. */
export function readsVsNoWrites(r: MixedResult, results: readonly MixedResult[]): number {
  const roundBase = results.find((b) => b.phase === PHASES[0]!.name && b.round === r.round)?.rps
  return r.rps / Math.max(r.baselineRps ?? roundBase ?? r.rps, 1)
}

/** The mixed row as a table, each phase against the no-write window run just before it. */
export function mixedTable(results: MixedResult[]): string {
  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 1 : 0) : '—')
  return [
    '| Phase (read mix: 60% newest page, 20% a tag page, 20% a two-word search of 100) | round | req/s | no writes just before, req/s | vs no writes | p50 ms | p99 ms | longest event-loop delay ms (main-thread CPU; waiting for a core; stolen) | longest delay less its wait for a core and stolen time ms | major collections: number, pauses ms | writes | writes p50 / p99 ms (the server\'s p99) | failed writes | unexpected reads |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.phase} | ${r.round} | ${r.rps} | ${r.baselineRps ?? '—'} | ${((readsVsNoWrites(r, results) * 100) | 0)}% | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.stallMs)} (${fmt(r.stallCpuMs)}; ${fmt(r.stallCoreWaitMs)}; ${fmt(r.stallStolenMs)}) | ${fmt(r.stallOwnMs)} | ${r.majorGcs}, ${fmt(r.majorGcMs)} | ${r.writes} | ${r.writes ? `${fmt(r.writeP50)} / ${fmt(r.writeP99)} (${fmt(r.writeServerP99)})` : '—'} | ${r.failedWrites} | ${r.unexpected} |`,
    ),
  ].join('\n')
}
