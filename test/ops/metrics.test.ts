/**
 * GET /metrics of a real server process (one process, METRICS_TOKEN and METRICS_PORT set):
 * Prometheus text with requests by route and status, latency histograms, cache lookups,
 * store timings, the follow-up queue and process metrics; the token is required on the main
 * port; METRICS_PORT listens on 127.0.0.1 only. Without either, /metrics is a 404.
 */
import { request as httpRequest } from 'node:http'
import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createAppServer } from '../../src/edge/nodeServer'
import { metricsOnMainPort } from '../../server/metricsEndpoint'
import { freePort, startServer, tryConnect, type ServerProcess } from './support/serverProcess'

let server: ServerProcess
let metricsPort: number
const TOKEN = 'metrics-token-0123456789abcdef'

beforeAll(async () => {
  metricsPort = await freePort()
  server = await startServer({ METRICS_PORT: String(metricsPort), METRICS_TOKEN: TOKEN })
}, 120_000)

afterAll(() => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL')
})

function get(port: number, path: string, headers: Record<string, string> = {}, host = '127.0.0.1') {
  return new Promise<{ status: number; type: string | undefined; text: string }>((resolve, reject) => {
    const req = httpRequest({ host, port, path, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], text }))
    })
    req.on('error', reject)
    req.end()
  })
}

const sample = (text: string, prefix: string) => {
  const line = text.split('\n').find((l) => l.startsWith(prefix))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1))
}

describe('GET /metrics', () => {
  it('counts requests by route and status, with latency, cache, store, queue and process metrics', async () => {
    for (let i = 0; i < 3; i++) expect((await get(server.port, '/api/v1/content?limit=5')).status).toBe(200)
    expect((await get(server.port, '/api/v1/content/no-such-item')).status).toBe(404)
    const res = await get(metricsPort, '/metrics')
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(sample(res.text, 'http_requests_total{route="GET /api/v1/content",status="200"}')).toBe(3)
    expect(sample(res.text, 'http_requests_total{route="GET /api/v1/content/:slug",status="404"}')).toBe(1)
    expect(sample(res.text, 'http_request_duration_seconds_count{route="GET /api/v1/content"}')).toBe(3)
    expect(sample(res.text, 'http_request_duration_seconds_bucket{le="+Inf",route="GET /api/v1/content"}')).toBe(3)
    // The first list misses the serialized-answer cache and reads the store (its total too); the
    // two repeats hit the answer cache and never reach the store.
    expect(sample(res.text, 'cache_lookups_total{cache="content_answers",result="hit"}')).toBeGreaterThanOrEqual(2)
    expect(sample(res.text, 'cache_lookups_total{cache="content_answers",result="miss"}')).toBeGreaterThanOrEqual(1)
    expect(sample(res.text, 'db_operation_duration_seconds_count{operation="listContent"}')).toBe(1)
    expect(sample(res.text, 'followup_jobs{state="queued"}')).toBe(0)
    expect(sample(res.text, 'followup_jobs{state="failed"}')).toBe(0)
    expect(res.text).toContain('# TYPE followup_job_failures_total counter')
    expect(sample(res.text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(res.text).toContain('nodejs_eventloop_lag_seconds')
  })

  it('on the main port needs the bearer token: none 401 auth.missing_token, wrong 401 auth.invalid_token, right 200', async () => {
    const none = await get(server.port, '/metrics')
    expect(none.status).toBe(401)
    expect(JSON.parse(none.text)).toEqual({ success: false, error: { code: 'auth.missing_token', message: expect.any(String) } })
    const wrong = await get(server.port, '/metrics', { authorization: `Bearer ${TOKEN}x` })
    expect(wrong.status).toBe(401)
    expect(JSON.parse(wrong.text).error.code).toBe('auth.invalid_token')
    const right = await get(server.port, '/metrics', { authorization: `Bearer ${TOKEN}` })
    expect(right.status).toBe(200)
    expect(right.text).toContain('http_requests_total{route="GET /api/v1/content",status="200"}')
  })

  it('METRICS_PORT listens on 127.0.0.1 only', async () => {
    // Lines reach stdout within a tenth of a second (buffered).
    const line = await server.waitForLine((l) => l.msg === 'metrics.listening', 5000)
    expect(line).toMatchObject({ host: '127.0.0.1', port: metricsPort })
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)
    if (external) {
      const result = await new Promise<string>((resolve) => {
        const req = httpRequest({ host: external.address, port: metricsPort, path: '/metrics', agent: false }, () => resolve('answered'))
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'))
        req.end()
      })
      expect(result).toBe('ECONNREFUSED')
    }
    expect(await tryConnect(metricsPort)).toBe('connected')
  })

  it('is a 404 on the main port when no METRICS_TOKEN is set', async () => {
    const plain = createAppServer({ api: (_q, s) => s.end(), other: (_q, s) => s.end(), metrics: metricsOnMainPort(undefined) })
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r))
    const port = (plain.address() as { port: number }).port
    const res = await get(port, '/metrics', { authorization: `Bearer ${TOKEN}` })
    await new Promise((r) => plain.close(r))
    expect(res.status).toBe(404)
    expect(JSON.parse(res.text).error.code).toBe('route.not_found')
  })
})
