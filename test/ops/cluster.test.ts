/**
 * WEB_CONCURRENCY=2 over real HTTP: a cluster primary and two worker processes sharing the
 * port. Requests are served by both (told apart by the `pid` of their log lines), the login
 * rate limit is one limit across them, a write through one is read at once through the
 * other, metrics are summed across workers, and SIGTERM stops the whole cluster with exit 0.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { freePort, startServer, type ServerProcess } from './support/serverProcess'

let server: ServerProcess
let metricsPort: number
let adminToken: string
const TOKEN = 'cluster-metrics-token-0123456789'

beforeAll(async () => {
  metricsPort = await freePort()
  server = await startServer({ WEB_CONCURRENCY: '2', RATE_LIMIT_LOGIN: '10/3600', METRICS_PORT: String(metricsPort), METRICS_TOKEN: TOKEN })
  // Both workers listening (the second is forked once the first listens).
  await server.waitForLine((l) => l.msg === 'server.listening' && server.lines.filter((x) => x.msg === 'server.listening').length >= 2)
  // The first login from this address (RATE_LIMIT_LOGIN=10/3600 counts every attempt).
  const login = await call('POST', '/api/v1/auth/login', { body: { email: 'admin@example.com', password: 'admin-password-123' } })
  expect(login.status).toBe(200)
  adminToken = login.body.data.accessToken
}, 180_000)

afterAll(() => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL')
})

/** A fresh connection per request (the primary spreads connections, not requests). */
function call(method: string, path: string, init: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { connection: 'close', ...init.headers }
  const body = init.body === undefined ? undefined : JSON.stringify(init.body)
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (init.token) headers.authorization = `Bearer ${init.token}`
  return new Promise<{ status: number; body: any; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => {
        let parsed: unknown
        try {
          parsed = text ? JSON.parse(text) : undefined
        } catch {
          parsed = undefined
        }
        resolve({ status: res.statusCode!, body: parsed, text })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** The value of one exposition line (label values may hold spaces; the value is last). */
const sampleValue = (line: string | undefined) => Number(line?.slice(line.lastIndexOf(' ') + 1))

/** The request.completed lines of these request ids, once every one has arrived (workers flush their buffered lines within a tenth of a second). */
async function completedLines(ids: string[]): Promise<{ requestId?: unknown; pid?: unknown }[]> {
  const lines = () => server.lines.filter((l) => l.msg === 'request.completed' && ids.includes(String(l.requestId)))
  await expect.poll(() => lines().length, { timeout: 15_000 }).toBe(ids.length)
  return lines()
}

describe('WEB_CONCURRENCY=2', () => {
  it('runs a primary and two workers; requests are served by both', async () => {
    const listening = server.lines.filter((l) => l.msg === 'server.listening')
    const workerPids = new Set(listening.map((l) => l.pid))
    expect(workerPids.size).toBe(2)
    expect(workerPids.has(server.child.pid)).toBe(false)
    for (let i = 0; i < 12; i++) expect((await call('GET', '/api/v1/health', { headers: { 'x-request-id': `spread-${i}` } })).status).toBe(200)
    const spread = await completedLines(Array.from({ length: 12 }, (_, i) => `spread-${i}`))
    expect(new Set(spread.map((l) => l.pid))).toEqual(workerPids)
  })

  it('shares the login rate limit (10 an hour per address): the 11th login is 429, whichever worker answers', async () => {
    // The admin's login in beforeAll was the first; nine bad ones follow, then the eleventh.
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', '/api/v1/auth/login', { body: { email: 'nobody@example.com', password: 'wrong-password-1' }, headers: { 'x-request-id': `bad-login-${i}` } })
      statuses.push(res.status)
      if (i === 9) expect(res.body.error.code).toBe('ratelimit.exceeded')
    }
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true)
    expect(statuses[9]).toBe(429)
    const pids = new Set((await completedLines(Array.from({ length: 10 }, (_, i) => `bad-login-${i}`))).map((l) => l.pid))
    expect(pids.size).toBe(2)
  })

  it('a write through one worker is visible through the other at once', async () => {
    for (let i = 0; i < 3; i++) {
      const slug = `cluster-tag-${i}-${Date.now()}`
      const created = await call('POST', '/api/v1/tags', { token: adminToken, body: { slug, label: `Cluster ${i}`, facet: 'topic' }, headers: { 'x-request-id': `write-${i}` } })
      expect(created.status).toBe(201)
      // Read at once, on new connections (which the primary hands to the workers in turn).
      for (let j = 0; j < 3; j++) {
        const read = await call('GET', `/api/v1/tags/${slug}`, { headers: { 'x-request-id': `read-${i}-${j}` } })
        expect(read.status).toBe(200)
        expect(read.body.data).toMatchObject({ slug, label: `Cluster ${i}` })
      }
    }
    const lines = await completedLines([0, 1, 2].flatMap((i) => [`write-${i}`, ...[0, 1, 2].map((j) => `read-${i}-${j}`)]))
    const pidOf = (id: string) => lines.find((l) => l.requestId === id)?.pid
    const crossWorkerReads = [0, 1, 2].flatMap((i) => [0, 1, 2].filter((j) => pidOf(`read-${i}-${j}`) !== pidOf(`write-${i}`)))
    expect(crossWorkerReads.length).toBeGreaterThan(0)
  })

  it('serves the summed metrics of both workers on 127.0.0.1:METRICS_PORT and with the token on the main port', async () => {
    for (let i = 0; i < 6; i++) await call('GET', '/api/v1/meta')
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
    const line = text.split('\n').find((l) => l.startsWith('http_requests_total{route="GET /api/v1/meta",status="200"}'))
    expect(sampleValue(line)).toBeGreaterThanOrEqual(6)
    expect(text).toContain('followup_jobs{state="queued"}')
    const viaWorker = await call('GET', '/metrics', { token: TOKEN })
    expect(viaWorker.status).toBe(200)
    const again = viaWorker.text.split('\n').find((l) => l.startsWith('http_requests_total{route="GET /api/v1/meta",status="200"}'))
    expect(sampleValue(again)).toBeGreaterThanOrEqual(6)
  })

  it('both workers write to the one stdout directly: under load every line arrives whole, none lost', async () => {
    // Long request ids make long lines, so many of them cross 4 KiB boundaries in each worker's writes.
    const ids = Array.from({ length: 600 }, (_, i) => `burst-${i}-${'z'.repeat(100)}`)
    for (let i = 0; i < ids.length; i += 60) {
      await Promise.all(ids.slice(i, i + 60).map((id) => call('GET', '/api/v1/meta', { headers: { 'X-Request-Id': id } })))
    }
    const burst = () => server.lines.filter((l) => String(l.requestId).startsWith('burst-') && l.msg === 'request.completed')
    for (let i = 0; i < 100 && burst().length < ids.length; i++) await new Promise((r) => setTimeout(r, 100))
    expect(new Set(burst().map((l) => l.requestId)).size).toBe(ids.length)
    expect(new Set(burst().map((l) => l.pid)).size).toBe(2)
    expect(server.lines.filter((l) => 'unparsed' in l)).toEqual([])
  })

  it('SIGTERM stops the workers, then the primary, exit 0', async () => {
    server.child.kill('SIGTERM')
    const exit = await server.exited
    expect(exit).toEqual({ code: 0, signal: null })
    const stopped = server.lines.filter((l) => l.msg === 'server.stopped')
    expect(stopped).toHaveLength(3)
    expect(stopped.at(-1)!.pid).toBe(server.child.pid)
    expect(server.lines.every((l) => !('unparsed' in l))).toBe(true)
  }, 60_000)
})
