/**
 * The process's Prometheus metrics (prom-client): requests by route and status, latency by
 * route, cache lookups, database call timings, follow-up job failures and queue depth, and
 * Node's own process metrics. A platform module: the layers above report into it through
 * the small functions below (pre-labelled children, so a hot path pays an increment, not a
 * label lookup); GET /metrics (src/edge/metricsEndpoint) reads it.
 *
 * In cluster mode each worker keeps its own values; the primary sums them on a scrape
 * (prom-client's AggregatorRegistry, src/edge/cluster).
 */
import client, { type Counter, type Histogram } from 'prom-client'

export const registry = client.register

/** The registry's text exposition, as /metrics answers it. */
export type MetricsText = { contentType: string; body: string }

client.collectDefaultMetrics({ register: registry })

const requests = new client.Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route (the API route pattern; "next" for the admin panel and pages) and status.',
  labelNames: ['route', 'status'] as const,
})

const latency = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request reaching the handler to its answer being built, by route.',
  labelNames: ['route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
})

const cacheLookups = new client.Counter({
  name: 'cache_lookups_total',
  help: 'Lookups in the in-process caches (content pages, totals, search orders, term scores, catalog), by cache and result (hit or miss).',
  labelNames: ['cache', 'result'] as const,
})

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
type RouteChildren = { latency: ReturnType<Histogram<'route'>['labels']>; byStatus: Map<number, ReturnType<Counter<'route' | 'status'>['labels']>> }
const routes = new Map<string, RouteChildren>()

export function observeRequest(route: string, status: number, durationMs: number): void {
  let children = routes.get(route)
  if (!children) {
    children = { latency: latency.labels(route), byStatus: new Map() }
    routes.set(route, children)
  }
  let counter = children.byStatus.get(status)
  if (!counter) {
    counter = requests.labels(route, String(status))
    children.byStatus.set(status, counter)
  }
  counter.inc()
  children.latency.observe(durationMs / 1000)
}

export type CacheCounter = { hit(): void; miss(): void }

/** Counters for one named cache; call once per cache and keep the result. */
export function cacheCounter(cache: string): CacheCounter {
  const hits = cacheLookups.labels(cache, 'hit')
  const misses = cacheLookups.labels(cache, 'miss')
  return { hit: () => hits.inc(), miss: () => misses.inc() }
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
