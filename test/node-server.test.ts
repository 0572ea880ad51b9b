/**
 * The production path: Node's http server (src/edge/nodeServer, as server.ts builds it) hands
 * /api/v1 to the dispatcher through the Node adapter (src/edge/nodeAdapter), with no Fetch
 * objects in between. Driven over real HTTP.
 */
import { request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { dispatchApi } from '../endpoints'
import { getConfig } from '../src/platform/config'
import { serveApi } from '../src/edge/nodeAdapter'
import { createAppServer } from '../src/edge/nodeServer'
import { testApp } from './support/app'

let server: Server
let port: number

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string; body: any }

/** One raw HTTP exchange; `chunks` are written one by one (chunked transfer, no Content-Length). */
function call(method: string, path: string, opts: { headers?: Record<string, string>; body?: string; chunks?: string[] } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...opts.headers }
    if (opts.body !== undefined) headers['Content-Length'] = Buffer.byteLength(opts.body)
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8')
        let body: unknown
        try {
          body = text ? JSON.parse(text) : undefined
        } catch {
          body = undefined
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body })
      })
    })
    req.on('error', reject)
    if (opts.body !== undefined) req.end(opts.body)
    else if (opts.chunks) {
      for (const c of opts.chunks) req.write(c)
      req.end()
    } else req.end()
  })
}

beforeAll(async () => {
  const app = await testApp()
  // The server server.ts runs, with a stand-in for Next behind everything outside /api/v1.
  server = createAppServer({
    api: (req, res, security) => serveApi(dispatchApi, req, res, app.payload, 'http://127.0.0.1', security),
    other: (_req, res) => res.writeHead(404).end(),
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('the Node server path for /api/v1', () => {
  it('answers with the envelope, the request id, an exact Content-Length and the JSON type', async () => {
    const res = await call('GET', '/api/v1/health', { headers: { 'X-Request-Id': 'node-path-1' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, data: { status: 'ok' }, meta: { requestId: 'node-path-1', durationMs: expect.any(Number) } })
    expect(res.headers['x-request-id']).toBe('node-path-1')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text))
  })

  it('reads the query string and tolerates a trailing slash', async () => {
    const res = await call('GET', '/api/v1/content/?limit=2&offset=1')
    expect(res.status).toBe(200)
    expect(res.body.pagination).toMatchObject({ offset: 1, limit: 2 })
    const bad = await call('GET', '/api/v1/content?limit=999')
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('pagination.invalid')
  })

  it('reads JSON bodies, and refuses malformed JSON with 400 validation.failed', async () => {
    const ok = await call('POST', '/api/v1/slug/suggest', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ value: 'Héllo, Wörld!', entity: 'content' }),
    })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual({ slug: 'hello-world' })
    const bad = await call('POST', '/api/v1/slug/suggest', { headers: { 'Content-Type': 'application/json' }, body: '{"value":' })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({ code: 'validation.failed', details: [{ field: '(body)', constraint: 'json' }] })
  })

  it('refuses a body over the limit with 413, whether announced by Content-Length or streamed', async () => {
    const big = JSON.stringify({ value: 'x'.repeat(getConfig().bodyLimits.json), entity: 'content' })
    for (const res of [
      await call('POST', '/api/v1/slug/suggest', { headers: { 'Content-Type': 'application/json' }, body: big }),
      await call('POST', '/api/v1/slug/suggest', {
        headers: { 'Content-Type': 'application/json' },
        chunks: [big.slice(0, 600_000), big.slice(600_000)],
      }),
    ]) {
      expect(res.status).toBe(413)
      expect(res.body).toMatchObject({
        success: false,
        error: { code: 'validation.failed', details: [{ field: '(body)', constraint: 'max_bytes' }] },
      })
    }
    // The connection and the server are still usable afterwards.
    expect((await call('GET', '/api/v1/health')).status).toBe(200)
  })

  it('answers preflights, unknown paths (404), wrong methods (405 with Allow) and broken escapes', async () => {
    const pre = await call('OPTIONS', '/api/v1/content', {
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(pre.text).toBe('')
    const missing = await call('GET', '/api/v1/nothing/here')
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('route.not_found')
    const wrong = await call('DELETE', '/api/v1/catalog')
    expect(wrong.status).toBe(405)
    expect(wrong.headers.allow).toBe('GET, HEAD')
    expect(wrong.body.error.code).toBe('route.method_not_allowed')
    const broken = await call('GET', '/api/v1/content/%E0%A4%A')
    expect(broken.status).toBe(404)
    expect(broken.body.error.code).toBe('route.not_found')
  })

  it('answers 304 with no body when If-None-Match matches the catalog ETag', async () => {
    const first = await call('GET', '/api/v1/catalog')
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/"/)
    const again = await call('GET', '/api/v1/catalog', { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.etag).toBe(etag)
    expect(again.headers['cache-control']).toBe(first.headers['cache-control'])
  })
})
