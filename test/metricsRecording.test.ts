/**
 * observeRequest's and cacheCounter's tallies, as a scrape reads them: the same names, help,
 * labels, bucket bounds and values prom-client's own Counter and Histogram give for the same
 * requests and lookups, in the text exposition and in the JSON the cluster primary sums
 * (AggregatorRegistry).
 * A reference registry of prom-client metrics, fed every call this file makes, is the
 * measure.
 */
import client, { AggregatorRegistry, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'

import { cacheCounter, observeRequest, registry } from '../src/platform/metrics'

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const NAMES = ['http_requests_total', 'http_request_duration_seconds']

// The metrics as src/platform/metrics.ts defined them with prom-client's classes.
const reference = new Registry()
const refRequests = new client.Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route (the API route pattern; "next" for the admin panel and pages) and status.',
  labelNames: ['route', 'status'] as const,
  registers: [reference],
})
const refLatency = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request reaching the handler to its answer being built, by route.',
  labelNames: ['route'] as const,
  buckets: BOUNDS,
  registers: [reference],
})

/** One request, recorded by the module and by the reference. */
function request(route: string, status: number, durationMs: number): void {
  observeRequest(route, status, durationMs)
  refRequests.labels(route, String(status)).inc()
  refLatency.labels(route).observe(durationMs / 1000)
}

const text = async (reg: Registry, name: string) => reg.getSingleMetricAsString(name)
const linesOf = (body: string, routes: string[]) => body.split('\n').filter((l) => routes.some((r) => l.includes(`route="${r}"`)))
const json = async (reg: Registry) => (await reg.getMetricsAsJSON()).filter((m) => NAMES.includes(m.name))

async function expectSameAsReference(): Promise<void> {
  for (const name of NAMES) expect(await text(registry, name)).toBe(await text(reference, name))
  expect(await json(registry)).toStrictEqual(await json(reference))
}

describe('observeRequest', () => {
  it('shows exactly the counts, buckets, sum and count prom-client showed for a known sequence', async () => {
    const routes = ['GET /api/v1/content', 'GET /api/v1/content/:slug', 'next']
    request('GET /api/v1/content', 200, 0.4)
    request('GET /api/v1/content', 200, 1) // 0.001 s: in le="0.001"
    request('GET /api/v1/content', 200, 1.2)
    request('GET /api/v1/content/:slug', 404, 3)
    request('GET /api/v1/content/:slug', 200, 10) // 0.01 s: in le="0.01"
    request('next', 200, 12_000) // above every bound: only +Inf
    request('next', 304, 0)
    request('GET /api/v1/content', 500, 2.5) // 0.0025 s: in le="0.0025"

    const counter = await text(registry, 'http_requests_total')
    expect(counter.split('\n').slice(0, 2)).toEqual([
      '# HELP http_requests_total HTTP requests answered, by route (the API route pattern; "next" for the admin panel and pages) and status.',
      '# TYPE http_requests_total counter',
    ])
    expect(linesOf(counter, routes)).toEqual([
      'http_requests_total{route="GET /api/v1/content",status="200"} 3',
      'http_requests_total{route="GET /api/v1/content/:slug",status="404"} 1',
      'http_requests_total{route="GET /api/v1/content/:slug",status="200"} 1',
      'http_requests_total{route="next",status="200"} 1',
      'http_requests_total{route="next",status="304"} 1',
      'http_requests_total{route="GET /api/v1/content",status="500"} 1',
    ])

    const histogram = await text(registry, 'http_request_duration_seconds')
    expect(histogram.split('\n').slice(0, 2)).toEqual([
      '# HELP http_request_duration_seconds Time from the request reaching the handler to its answer being built, by route.',
      '# TYPE http_request_duration_seconds histogram',
    ])
    const series = (route: string, cumulative: number[], sum: string, count: number) => [
      ...BOUNDS.map((b, i) => `http_request_duration_seconds_bucket{le="${b}",route="${route}"} ${cumulative[i]}`),
      `http_request_duration_seconds_bucket{le="+Inf",route="${route}"} ${count}`,
      `http_request_duration_seconds_sum{route="${route}"} ${sum}`,
      `http_request_duration_seconds_count{route="${route}"} ${count}`,
    ]
    expect(linesOf(histogram, routes)).toEqual([
      ...series('GET /api/v1/content', [2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], '0.0051', 4),
      ...series('GET /api/v1/content/:slug', [0, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], '0.013000000000000001', 2),
      ...series('next', [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], '12', 2),
    ])
    // The same lines in the full exposition /metrics answers.
    const all = await registry.metrics()
    for (const line of [...linesOf(counter, routes), ...linesOf(histogram, routes)]) expect(all).toContain(`${line}\n`)
    await expectSameAsReference()
  })

  it('counts a value equal to a bound in that bucket and one just above it in the next (le is value <= bound)', async () => {
    for (const b of BOUNDS) {
      expect((b * 1000) / 1000).toBe(b)
      request('GET /on-bounds', 200, b * 1000)
      request('GET /above-bounds', 200, b * 1000 * (1 + 1e-9))
    }
    const histogram = await text(registry, 'http_request_duration_seconds')
    const bucket = (route: string, le: string) => histogram.split('\n').find((l) => l.startsWith(`http_request_duration_seconds_bucket{le="${le}",route="${route}"} `))
    BOUNDS.forEach((b, i) => {
      expect(bucket('GET /on-bounds', String(b))).toBe(`http_request_duration_seconds_bucket{le="${b}",route="GET /on-bounds"} ${i + 1}`)
      expect(bucket('GET /above-bounds', String(b))).toBe(`http_request_duration_seconds_bucket{le="${b}",route="GET /above-bounds"} ${i}`)
    })
    expect(bucket('GET /on-bounds', '+Inf')).toMatch(/ 13$/)
    expect(bucket('GET /above-bounds', '+Inf')).toMatch(/ 13$/)
    await expectSameAsReference()
  })

  it('adds only what came since the last read: repeated scrapes neither lose nor double requests', async () => {
    request('GET /repeat', 200, 5)
    await registry.metrics()
    await registry.getMetricsAsJSON()
    request('GET /repeat', 200, 7)
    request('GET /repeat', 201, 7)
    await expectSameAsReference()
    await expectSameAsReference()
    expect(linesOf(await text(registry, 'http_requests_total'), ['GET /repeat'])).toEqual([
      'http_requests_total{route="GET /repeat",status="200"} 2',
      'http_requests_total{route="GET /repeat",status="201"} 1',
    ])
  })

  it('gives JSON the cluster primary sums as it summed prom-client\'s (AggregatorRegistry.aggregate)', async () => {
    request('GET /summed', 200, 0.7)
    request('GET /summed', 200, 30)
    request('GET /summed', 503, 30_000)
    // Each worker's JSON crosses the IPC channel as JSON.
    const ipc = async (reg: Registry) => JSON.parse(JSON.stringify(await reg.getMetricsAsJSON())) as Awaited<ReturnType<Registry['getMetricsAsJSON']>>
    const worker = await ipc(registry)
    const summed = AggregatorRegistry.aggregate([worker, worker])
    const refWorker = await ipc(reference)
    const refSummed = AggregatorRegistry.aggregate([refWorker, refWorker])
    for (const name of NAMES) expect(await summed.getSingleMetricAsString(name)).toBe(await refSummed.getSingleMetricAsString(name))

    expect(linesOf(await summed.getSingleMetricAsString('http_requests_total'), ['GET /summed'])).toEqual([
      'http_requests_total{route="GET /summed",status="200"} 4',
      'http_requests_total{route="GET /summed",status="503"} 2',
    ])
    const histogram = linesOf(await summed.getSingleMetricAsString('http_request_duration_seconds'), ['GET /summed'])
    expect(histogram).toContain('http_request_duration_seconds_bucket{le="0.001",route="GET /summed"} 2')
    expect(histogram).toContain('http_request_duration_seconds_bucket{le="0.025",route="GET /summed"} 2')
    expect(histogram).toContain('http_request_duration_seconds_bucket{le="0.05",route="GET /summed"} 4')
    expect(histogram).toContain('http_request_duration_seconds_bucket{le="10",route="GET /summed"} 4')
    expect(histogram).toContain('http_request_duration_seconds_bucket{le="+Inf",route="GET /summed"} 6')
    expect(histogram).toContain(`http_request_duration_seconds_sum{route="GET /summed"} ${2 * (0.0007 + 0.03 + 30)}`)
    expect(histogram).toContain('http_request_duration_seconds_count{route="GET /summed"} 6')
  })

  it('refuses a duration that is not a number, as prom-client did: the request counted, its latency not', async () => {
    expect(() => observeRequest('GET /nan', 200, Number.NaN)).toThrow(TypeError)
    refRequests.labels('GET /nan', '200').inc()
    expect(() => refLatency.labels('GET /nan').observe(Number.NaN)).toThrow(TypeError)
    request('GET /nan', 200, 4)
    await expectSameAsReference()
  })

  it('after registry.resetMetrics() shows only what came afterwards', async () => {
    registry.resetMetrics()
    reference.resetMetrics()
    request('GET /after-reset', 200, 2)
    request('GET /api/v1/content', 200, 2)
    // Values as prom-client's; a series seen before the reset keeps its earlier place.
    for (const name of NAMES) {
      const lines = async (reg: Registry) => (await text(reg, name)).split('\n').sort()
      expect(await lines(registry)).toEqual(await lines(reference))
    }
    expect(linesOf(await text(registry, 'http_requests_total'), ['GET /api/v1/content'])).toEqual([
      'http_requests_total{route="GET /api/v1/content",status="200"} 1',
    ])
  })
})

describe('cacheCounter', () => {
  const refLookups = new client.Counter({
    name: 'cache_lookups_total',
    help: 'Lookups in the in-process caches (content pages, totals, search orders, term scores, catalog), by cache and result (hit or miss).',
    labelNames: ['cache', 'result'] as const,
    registers: [reference],
  })
  const lookups = async (reg: Registry) => (await text(reg, 'cache_lookups_total')).split('\n').filter((l) => l.includes('cache="test_'))

  it('counts hits and misses as prom-client did: a series from its first lookup, caches of one name summed, each read adding only what is new', async () => {
    const first = cacheCounter('test_pages')
    const second = cacheCounter('test_pages') // a second cache of the same name (one per engine)
    const other = cacheCounter('test_orders')
    expect(await lookups(registry)).toEqual([]) // no lookup yet: no series, as with prom-client
    for (const [counter, result, times] of [[first, 'hit', 3], [second, 'hit', 2], [first, 'miss', 1], [other, 'miss', 4]] as const) {
      for (let i = 0; i < times; i++) counter[result]()
      refLookups.labels(counter === other ? 'test_orders' : 'test_pages', result).inc(times)
    }
    expect(await lookups(registry)).toEqual(await lookups(reference))
    expect(await lookups(registry)).toEqual([
      'cache_lookups_total{cache="test_pages",result="hit"} 5',
      'cache_lookups_total{cache="test_pages",result="miss"} 1',
      'cache_lookups_total{cache="test_orders",result="miss"} 4',
    ])
    // A second read adds nothing; a later hit is added once.
    second.hit()
    refLookups.labels('test_pages', 'hit').inc()
    expect(await lookups(registry)).toEqual(await lookups(reference))
    expect(await lookups(registry)).toContain('cache_lookups_total{cache="test_pages",result="hit"} 6')
    const values = (await registry.getSingleMetric('cache_lookups_total')!.get()).values.filter((v) => String(v.labels.cache).startsWith('test_'))
    expect(values.map((v) => v.value)).toEqual([6, 1, 4])
  })
})
