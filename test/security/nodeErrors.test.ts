/**
 * Errors Node itself detects (before any handler runs) answer with the JSON envelope, request
 * headers and bodies have a timeout, and no 4xx is ever logged at error level or with a stack.
 * Driven over a real HTTP server built as server.ts builds it (src/edge/nodeServer).
 */
import { connect, type AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { APIError } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// A short timeout for this file: a body that never finishes is answered within about a second.
process.env.HTTP_REQUEST_TIMEOUT_SECONDS = '1'

import { dispatchApi } from '../../endpoints'
import { resetConfig } from '../../src/platform/config'
import { logger } from '../../src/platform/logging'
import { serveApi } from '../../src/edge/nodeAdapter'
import { createAppServer } from '../../src/edge/nodeServer'
import { ADMIN, freshIp } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let server: Server
let port: number

type RawAnswer = { status: number; headers: Record<string, string>; body: any }

/** Writes raw bytes to a fresh connection and reads until the server closes it (or `waitMs`). */
function raw(text: string, waitMs = 5_000): Promise<RawAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const parts: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(null)
    }, waitMs)
    socket.on('data', (c: Buffer) => parts.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(timer)
      const all = Buffer.concat(parts).toString('utf8')
      const [head = '', body = ''] = all.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const i = line.indexOf(':')
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim()
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(body)
      } catch {
        parsed = body
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: parsed })
    })
    socket.write(text)
  })
}

const errorLines = () => app.logs.filter((l) => l.level === 'error' || l.level === 'fatal' || l.err !== undefined)

beforeAll(async () => {
  resetConfig()
  app = await testApp()
  server = createAppServer({
    api: (req, res, security) => serveApi(dispatchApi, req, res, app.payload, 'http://127.0.0.1', security),
    other: (_req, res) => res.writeHead(404).end(),
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('Node-level errors answer with the envelope', () => {
  it('a 100 KB header: 431 validation.failed (max_bytes), JSON body, Connection: close', async () => {
    const res = await raw(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`)
    expect(res).not.toBeNull()
    expect(res!.status).toBe(431)
    expect(res!.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res!.headers.connection).toBe('close')
    expect(res!.body).toEqual({
      success: false,
      error: { code: 'validation.failed', message: expect.any(String), details: [{ field: '(headers)', constraint: 'max_bytes' }] },
      meta: { requestId: expect.stringMatching(/^req_/) },
    })
    expect(res!.headers['x-request-id']).toBe(res!.body.meta.requestId)
    expect(Number(res!.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(res!.body)))
  })

  it('an unknown method (FOO): 400 validation.failed with the envelope', async () => {
    const res = await raw('FOO /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(res!.status).toBe(400)
    expect(res!.headers.connection).toBe('close')
    expect(res!.body).toMatchObject({
      success: false,
      error: { code: 'validation.failed', details: [{ field: '(request)', constraint: 'http_method' }] },
      meta: { requestId: expect.stringMatching(/^req_/) },
    })
  })

  it('a malformed request line: 400 validation.failed with the envelope', async () => {
    const res = await raw('GET /api/v1/health HTTP/9.9 x\r\n\r\n')
    expect(res!.status).toBe(400)
    expect(res!.body).toMatchObject({ success: false, error: { code: 'validation.failed', details: [{ field: '(request)', constraint: 'http_syntax' }] } })
  })

  it('a body announced but never finished: 408 with the envelope within the timeout, logged at warn, no stack', async () => {
    const before = app.logs.length
    const res = await raw(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":"',
      // Patience far past this file's 1 s timeout and far short of Node's default (300 s): an
      // answer at all is the timeout applied (a 408 naming it), however busy the machine.
      30_000,
    )
    expect(res, 'the server held the connection').not.toBeNull()
    expect(res!.status).toBe(408)
    expect(res!.body).toMatchObject({
      success: false,
      error: { code: 'validation.failed', details: [{ field: '(request)', constraint: 'timeout' }] },
    })
    // Let the aborted request's own handler finish before reading the log.
    await new Promise((r) => setTimeout(r, 200))
    const lines = app.logs.slice(before)
    expect(lines.filter((l) => l.level === 'error' || l.err !== undefined || JSON.stringify(l).includes('"stack"'))).toEqual([])
    expect(lines.find((l) => l.msg === 'request.timeout')).toMatchObject({ level: 'warn', statusCode: 408 })
    expect(lines.some((l) => l.statusCode === 500)).toBe(false)
    // The server is still serving.
    const ok = await raw('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(ok!.status).toBe(200)
  })

  it('a client that goes away mid-body: request.aborted at warn, no 500, no stack', async () => {
    const before = app.logs.length
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /api/v1/slug/suggest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"va')
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 100)
      })
    })
    await new Promise((r) => setTimeout(r, 300))
    const lines = app.logs.slice(before)
    expect(lines.find((l) => l.msg === 'request.aborted')).toMatchObject({ level: 'warn', path: '/api/v1/slug/suggest', receivedBytes: 4 })
    expect(lines.filter((l) => l.level === 'error' || l.err !== undefined || l.statusCode === 500)).toEqual([])
  })

  it('headers that never finish: 408 within the timeout', async () => {
    const res = await raw('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: a', 6_000)
    expect(res, 'the server held the connection').not.toBeNull()
    expect(res!.status).toBe(408)
    expect(res!.body.error.code).toBe('validation.failed')
  })

  it('logs the Node-level refusals at warn, never error, with no stack', async () => {
    expect(errorLines()).toEqual([])
    const refused = app.logs.filter((l) => l.msg === 'request.rejected')
    expect(refused.map((l) => l.statusCode)).toEqual(expect.arrayContaining([431, 400]))
    for (const l of refused) expect(l.level).toBe('warn')
  })
})

describe("Payload's REST 400 query errors", () => {
  it('GET /api/content with a bad where is 400 and logs nothing at error level', async () => {
    const login = await app.request('POST', '/users/login', { body: ADMIN, headers: freshIp() })
    expect(login.status).toBe(200)
    const before = app.logs.length
    const res = await app.request('GET', '/content?where[foo][bar]=x', { headers: { Authorization: `JWT ${login.body.token}` } })
    expect(res.status).toBe(400)
    const lines = app.logs.slice(before)
    expect(lines.filter((l) => l.level === 'error' || l.err !== undefined)).toEqual([])
  })

  it('any 4xx error object logged at error (a renamed class, a direct call) becomes one info line without a stack; a 5xx stays', () => {
    const before = app.logs.length
    class Renamed extends APIError {}
    logger().error({ err: new Renamed('The following path cannot be queried: foo.bar', 400) })
    logger().error({ err: new APIError('database is gone', 500) }, 'payload.failed')
    const [downgraded, kept] = app.logs.slice(before)
    expect(downgraded).toMatchObject({ level: 'info', statusCode: 400, error: 'The following path cannot be queried: foo.bar' })
    expect(downgraded!.err).toBeUndefined()
    expect(JSON.stringify(downgraded)).not.toContain('stack')
    expect(kept).toMatchObject({ level: 'error', msg: 'payload.failed', err: { message: 'database is gone' } })
  })
})
