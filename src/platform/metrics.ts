/**
 * The process's Prometheus metrics (prom-client): requests by route and status, latency by
 * route, cache lookups, database call timings, follow-up job failures and queue depth, and
 * Node's own process metrics. A platform module: the layers above report into it through
 * the small functions below (plain tallies for requests and cache lookups, so a hot path pays
 * an increment, not a label lookup; pre-labelled children for the rarer ones); GET /metrics
 * (server/metricsEndpoint) reads it.
 *
 * In cluster mode each worker keeps its own values; the primary sums them on a scrape
 * (prom-client's AggregatorRegistry, server/clusterMetrics).
 */
import client, { type Metric } from 'prom-client'
import { noteLookup } from './cacheTrace'
import { takeLoopHold } from './loopHold'

export const registry = client.register

/** The registry's text exposition, as /metrics answers it. */
export type MetricsText = { contentType: string; body: string }

client.collectDefaultMetrics({ register: registry })

// The longest loop delay since the last scrape, the main thread's CPU, its wait for a core and the
// hypervisor's steal inside it, and the longest delay less those two (./loopHold): together they
// tell code holding the loop from a machine that did not run it. Across workers the primary keeps each one's largest.
new client.Gauge({
  name: 'nodejs_eventloop_delay_longest_seconds',
  help: 'The longest event-loop delay since the last scrape, wall time (a 10 ms timer late by this much).',
  aggregator: 'max',
  collect() {
    const hold = takeLoopHold()
    this.set(hold.delayMs / 1000)
    loopHoldCpu.set(hold.cpuInDelayMs / 1000)
    loopHoldCoreWait.set(hold.coreWaitInDelayMs / 1000)
    loopHoldStolen.set(hold.stolenInDelayMs / 1000)
    loopHoldOwn.set(hold.ownDelayMs / 1000)
  },
})
// Registered after the delay, whose collect sets them: the registry reads metrics in order.
const loopHoldCpu = new client.Gauge({
  name: 'nodejs_eventloop_delay_longest_cpu_seconds',
  help: "The main thread's CPU time within the longest event-loop delay since the last scrape (nodejs_eventloop_delay_longest_seconds).",
  aggregator: 'max',
})
const loopHoldCoreWait = new client.Gauge({
  name: 'nodejs_eventloop_delay_longest_core_wait_seconds',
  help: "The main thread's time waiting for a core (runnable, not running; Linux) within the longest event-loop delay since the last scrape.",
  aggregator: 'max',
})
const loopHoldStolen = new client.Gauge({
  name: 'nodejs_eventloop_delay_longest_stolen_seconds',
  help: "The time the hypervisor took from the main thread's CPU (/proc/stat steal, Linux) within the longest event-loop delay since the last scrape.",
  aggregator: 'max',
})
const loopHoldOwn = new client.Gauge({
  name: 'nodejs_eventloop_delay_longest_own_seconds',
  help: "The longest event-loop delay less the main thread's wait for a core and the hypervisor's steal in it, since the last scrape: the process's own part (running, or blocked in a call).",
  aggregator: 'max',
})

/** A count kept in a plain number, added to its prom-client counter when metrics are read. */
type Tally<Labels> = { labels: Labels; count: number; reported: number }

/**
 * Every request is tallied in plain numbers, found by one Map lookup per route and one per
 * status: prom-client's children re-hash their labels and validate on each increment (~2-5
 * µs a request). The tallies reach prom-client only when metrics are read.
 */
type StatusTally = Tally<{ route: string; status: string }>
type RouteTally = {
  labels: { route: string }
  /** Observations per latency bucket, not cumulative; one above the last bound is only in count. */
  buckets: Float64Array
  sum: number
  count: number
  byStatus: Map<number, StatusTally>
}

const LATENCY_BOUNDS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const routes = new Map<string, RouteTally>()
/** In first-seen order, the order prom-client would have created the counter's series in. */
const statuses: StatusTally[] = []

/**
 * A counter read from tallies: each read adds what was counted since the last one, so the
 * counter's own reset() keeps working, and a series appears with its first count.
 */
function talliedCounter(name: string, help: string, labelNames: readonly string[], tallies: readonly Tally<Record<string, string>>[]): void {
  new client.Counter({
    name,
    help,
    labelNames,
    collect() {
      for (const tally of tallies) {
        const delta = tally.count - tally.reported
        if (delta === 0) continue
        this.inc(tally.labels, delta)
        tally.reported = tally.count
      }
    },
  })
}

talliedCounter(
  'http_requests_total',
  'HTTP requests answered, by route (the API route pattern; "next" for the admin panel and pages) and status.',
  ['route', 'status'],
  statuses,
)

/** A histogram sample as prom-client's Histogram builds it for the text exposition. */
type LatencySample = {
  labels: { le?: number | string }
  sharedLabels: RouteTally['labels']
  value: number
  metricName: string
  exemplar: null | undefined
}

/**
 * http_request_duration_seconds, read from the route tallies. It answers what prom-client's
 * Histogram (labelNames ['route'], LATENCY_BOUNDS) answers for the same observations, value
 * for value, so the text exposition and the JSON the primary sums across workers are
 * unchanged.
 */
const latency = {
  name: 'http_request_duration_seconds',
  help: 'Time from the request reaching the handler to its answer being built, by route.',
  type: 'histogram',
  aggregator: 'sum',
  /** The text path: the route as shared labels, whose formatting the registry caches per object. */
  async getForPromString() {
    const values: LatencySample[] = []
    const bucket = `${this.name}_bucket`
    for (const { labels, buckets, sum, count } of routes.values()) {
      // A series exists once observed (prom-client creates it on the first observation).
      if (count === 0) continue
      let cumulative = 0
      for (let i = 0; i < LATENCY_BOUNDS.length; i++) {
        cumulative += buckets[i]!
        values.push({ labels: { le: LATENCY_BOUNDS[i]! }, sharedLabels: labels, value: cumulative, metricName: bucket, exemplar: null })
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucket, exemplar: null })
      values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum`, exemplar: undefined })
      values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count`, exemplar: undefined })
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  },
  /** The JSON path (getMetricsAsJSON, cluster workers): each sample's labels in one object. */
  async get() {
    const data = await this.getForPromString()
    const values = data.values.map(({ labels, sharedLabels, ...sample }) => ({ ...sample, labels: { ...labels, ...sharedLabels } }))
    return { ...data, values }
  },
  /** registry.resetMetrics(): the series go until observed again; the status counts are the counter's. */
  reset() {
    for (const tally of routes.values()) {
      tally.buckets.fill(0)
      tally.sum = 0
      tally.count = 0
    }
  },
}
// The registry reads only name, type, get() or getForPromString() and reset(); its type
// lists prom-client's classes.
registry.registerMetric(latency as unknown as Metric)

/** A cache's lookups by result, tallied as the requests are. */
type LookupTally = Tally<{ cache: string; result: 'hit' | 'miss' }>
const lookupTallies: LookupTally[] = []

talliedCounter(
  'cache_lookups_total',
  'Lookups in the in-process caches (content pages, totals, search orders, term scores, catalog), by cache and result (hit or miss).',
  ['cache', 'result'],
  lookupTallies,
)

const dbDuration = new client.Histogram({
  name: 'db_operation_duration_seconds',
  help: 'Time spent in content-store calls (the read and write fast paths), by operation.',
  labelNames: ['operation'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
})

const followUpFailures = new client.Counter({
  name: 'followup_job_failures_total',
  help: 'Follow-up job runs that failed, by kind and whether the job will be retried.',
  labelNames: ['kind', 'will_retry'] as const,
})

/** One answered request. Route patterns are a fixed set, so the label space stays bounded. */
export function observeRequest(route: string, status: number, durationMs: number): void {
  let tally = routes.get(route)
  if (tally === undefined) {
    tally = { labels: { route }, buckets: new Float64Array(LATENCY_BOUNDS.length), sum: 0, count: 0, byStatus: new Map() }
    routes.set(route, tally)
  }
  let counted = tally.byStatus.get(status)
  if (counted === undefined) {
    counted = { labels: { route, status: String(status) }, count: 0, reported: 0 }
    tally.byStatus.set(status, counted)
    statuses.push(counted)
  }
  counted.count++
  // In seconds and summed in call order, as prom-client did, so the sum is the same double.
  const seconds = durationMs / 1000
  // prom-client refused such a value (after counting the request); it would poison the sum.
  if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`)
  tally.sum += seconds
  tally.count++
  // A bound includes its own value (le: value <= bound).
  for (let i = 0; i < LATENCY_BOUNDS.length; i++) {
    if (seconds <= LATENCY_BOUNDS[i]!) {
      tally.buckets[i]!++
      return
    }
  }
}

/**
 * A lookup's outcome; `version`, what it was looked up at, goes to the request's cache trace
 * (./cacheTrace). `off`: the cache is switched off (CACHES_OFF): it keeps nothing and answers every
 * lookup by computing, counted as a miss.
 */
/** A lookup's version is a string, or a number (a clock, a change sequence) made a string only when traced. */
export type CacheCounter = { hit(version?: string | number): void; miss(version?: string | number): void; readonly off: boolean }

/**
 * CACHES_OFF: a comma list of cache names (docs/architecture.md's cache table; a name also
 * switches off its moderators' copy, `<name>_all`). For measuring what each cache earns
 * (`npm run bench:caches`) and for ruling a cache out while chasing a stale answer; read when a
 * cache is made (at import, for most).
 */
function switchedOff(cache: string): boolean {
  const off = new Set((process.env.CACHES_OFF ?? '').split(',').map((name) => name.trim()))
  return off.has(cache) || off.has(cache.replace(/_all$/, ''))
}

/**
 * Counters for one named cache; call once per cache and keep the result. A lookup adds one to a
 * plain number (a labelled prom-client child re-hashed its labels on every increment, a share of
 * a 304's time; docs/benchmarks.md, *Measurements behind the code*); the counter reads the tallies when metrics are read.
 */
export function cacheCounter(cache: string): CacheCounter {
  const hits = lookupTally(cache, 'hit')
  const misses = lookupTally(cache, 'miss')
  return {
    off: switchedOff(cache),
    hit: (version) => {
      hits.count++
      noteLookup(cache, 'hit', version)
    },
    miss: (version) => {
      misses.count++
      noteLookup(cache, 'miss', version)
    },
  }
}

/** One tally per cache name and result, shared by every cache of that name (as a labelled series is). */
function lookupTally(cache: string, result: LookupTally['labels']['result']): LookupTally {
  let tally = lookupTallies.find((t) => t.labels.cache === cache && t.labels.result === result)
  if (tally === undefined) {
    tally = { labels: { cache, result }, count: 0, reported: 0 }
    lookupTallies.push(tally)
  }
  return tally
}

/**
 * Wraps every method of a store so each call's duration is recorded under its name. Built
 * once per store; a call then costs two clock reads and one observation more.
 */
export function timedMethods<T extends object>(store: T): T {
  const timed = { ...store } as Record<string, unknown>
  const source = store as Record<string, unknown>
  for (const [name, fn] of Object.entries(source)) {
    if (typeof fn !== 'function') continue
    const child = dbDuration.labels(name)
    timed[name] = (...args: unknown[]) => {
      const started = performance.now()
      const result: unknown = fn.apply(store, args)
      if (result instanceof Promise) {
        return result.finally(() => child.observe((performance.now() - started) / 1000))
      }
      child.observe((performance.now() - started) / 1000)
      return result
    }
  }
  return timed as T
}

export function followUpFailed(kind: string, willRetry: boolean): void {
  followUpFailures.labels(kind, String(willRetry)).inc()
}

export type QueueDepth = { queued: number; running: number; failed: number }

/**
 * The follow-up queue's depth, read from the database on each scrape (start-up registers
 * the reader; the metrics layer knows no database). Every worker reads the same outbox, so
 * in cluster mode the primary keeps one worker's value ('max'), not their sum.
 */
export function collectQueueDepth(read: () => Promise<QueueDepth>): void {
  registry.removeSingleMetric('followup_jobs')
  new client.Gauge({
    name: 'followup_jobs',
    help: 'Follow-up jobs in the outbox by state: queued (due or waiting for a retry), running (claimed), failed (gave up).',
    labelNames: ['state'] as const,
    aggregator: 'max',
    async collect() {
      const depth = await read()
      this.set({ state: 'queued' }, depth.queued)
      this.set({ state: 'running' }, depth.running)
      this.set({ state: 'failed' }, depth.failed)
    },
  })
}
