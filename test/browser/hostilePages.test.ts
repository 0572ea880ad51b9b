/**
 * The hostile-input corpus against what only the real production server serves: the console's
 * pages (Next), Payload's REST through Next's route, and the reference, on the built app behind
 * server.ts (test/security/hostileInput.test.ts covers every API route in-process). 0 answers
 * of 5xx; no redirect to a host the request named; security headers on every answer.
 */
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type RunningServer, startServer } from './support/server'

let server: RunningServer
let port: number

beforeAll(async () => {
  server = await startServer()
  port = Number(new URL(server.baseUrl).port)
}, 180_000)
afterAll(() => server?.stop())

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string }

function send(method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : Buffer.from(opts.body)
    const headers: Record<string, string | number> = { ...opts.headers, ...(body ? { 'Content-Length': body.length } : {}) }
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const PAGES = ['/admin', '/admin/login', '/admin/collections/content', '/admin/collections/tags/create', '/admin/moderation', '/admin/globals/branding', '/docs', '/openapi.json']
const QUERIES = ['limit=1e309&page=1e309', 'where[or][0][id][exists]=true&depth=99999', 'search=%00%ED%A0%80', 'sort=__proto__', 'redirect=https://evil.example/', 'a=' + 'b'.repeat(8_000)]
const deep = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000)

describe('hostile input against the built server (pages, Payload REST via Next, reference)', () => {
  it('pages and the reference with hostile queries, odd methods and hostile bodies: no 5xx, headers on all', async () => {
    const problems: string[] = []
    for (const page of PAGES) {
      for (const q of ['', ...QUERIES]) {
        const answer = await send('GET', q ? `${page}?${q}` : page)
        if (answer.status >= 500) problems.push(`GET ${page}?${q.slice(0, 30)} → ${answer.status}`)
        if (answer.headers['x-content-type-options'] !== 'nosniff') problems.push(`GET ${page}?${q.slice(0, 30)}: no nosniff`)
        const location = String(answer.headers.location ?? '')
        if (/evil\.example/.test(location)) problems.push(`GET ${page}?${q.slice(0, 30)}: redirects to ${location}`)
      }
      for (const method of ['POST', 'PUT', 'DELETE', 'PROPFIND']) {
        const answer = await send(method, page, { headers: { 'Content-Type': 'application/json' }, body: deep })
        if (answer.status >= 500) problems.push(`${method} ${page} → ${answer.status} ${answer.text.slice(0, 80)}`)
      }
    }
    expect(problems).toEqual([])
  }, 300_000)

  it("Payload's REST through Next's route: the guard answers before Payload", async () => {
    const problems: string[] = []
    for (const [method, path, body] of [
      ['POST', '/api/tags', deep],
      ['POST', '/api/tags', '"a bare string"'],
      ['GET', '/api/tags?limit=1e309', undefined],
      ['GET', '/api/content/versions', undefined],
      ['POST', '/api/users/verify/x', undefined],
      ['GET', '/api/media/file/none.png', undefined],
    ] as const) {
      const answer = await send(method, path, { headers: { 'Content-Type': 'application/json' }, ...(body ? { body } : {}) })
      if (answer.status >= 500 || answer.status < 400) problems.push(`${method} ${path} → ${answer.status} ${answer.text.slice(0, 80)}`)
    }
    expect(problems).toEqual([])
  })

  it('absolute-form targets never redirect to the named host', async () => {
    for (const target of ['http://evil.example/admin', 'http://evil.example/admin/', 'http://evil.example/docs/', 'http://evil.example/api/v1/meta']) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`))
        let out = ''
        socket.on('data', (d) => (out += d))
        socket.on('end', () => resolve(out))
        socket.on('error', reject)
      })
      expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]), target).toBeLessThan(500)
      expect(answer.toLowerCase(), target).not.toMatch(/\r\nlocation: [^\r]*evil\.example/)
    }
  })
})
