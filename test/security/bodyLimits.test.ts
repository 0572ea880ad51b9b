/**
 * One body limit for every route (src/edge/bodyLimit), checked before anything parses the body
 * or checks who sent it: a body announcing more than HTTP_BODY_LIMIT_BYTES (128 KiB; multipart:
 * HTTP_UPLOAD_LIMIT_BYTES, 10 MiB) is answered 413 at once, unread, on Payload's REST, the
 * console's endpoints, pages and /api/v1 alike; a chunked body is cut off as soon as it passes
 * the limit. Payload's REST once read a 100 MB anonymous body whole before its 403 (5 s, +600 MB).
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { suggestSlugBody } from '../../endpoints/slug'
import { routeBodyLimit } from '../../src/edge/bodyBound'
import { loginBody } from '../../src/services/requestBodies'
import { startHttpServer, type RunningServer } from '../support/httpServer'

let server: RunningServer
let port: number

beforeAll(async () => {
  server = await startHttpServer()
  port = Number(new URL(server.origin).port)
}, 120_000)
afterAll(() => server?.close())

type Exchange = { status: number; head: string; body: any; sentBytes: number }

/**
 * Sends a request's head, then (optionally) its body in pieces, stopping as soon as an answer
 * arrives; resolves with the answer and how many body bytes had been sent.
 */
function exchange(head: string, body?: { piece: Buffer; pieces: number; chunked: boolean }): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    let sentBytes = 0
    let data = ''
    let answered = false
    const socket: Socket = connect(port, '127.0.0.1', async () => {
      socket.write(head)
      if (!body) return
      for (let i = 0; i < body.pieces && !answered && !socket.destroyed; i++) {
        const piece = body.chunked ? Buffer.concat([Buffer.from(`${body.piece.length.toString(16)}\r\n`), body.piece, Buffer.from('\r\n')]) : body.piece
        await new Promise<void>((done) => socket.write(piece, () => done()))
        sentBytes += body.piece.length
        await new Promise((r) => setTimeout(r, 2))
      }
      if (!answered && body.chunked && !socket.destroyed) socket.write('0\r\n\r\n')
    })
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      data += chunk
      answered = true
    })
    const finish = () => {
      const [headPart = '', ...rest] = data.split('\r\n\r\n')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headPart)?.[1])
      if (!status) return reject(new Error(`no answer: ${JSON.stringify(data.slice(0, 200))}`))
      let parsed: unknown
      try {
        parsed = JSON.parse(rest.join('\r\n\r\n'))
      } catch {
        parsed = undefined
      }
      resolve({ status, head: headPart.toLowerCase(), body: parsed, sentBytes })
    }
    socket.on('close', finish)
    socket.on('error', () => undefined)
    setTimeout(() => socket.destroy(), 20_000)
  })
}

const requestHead = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Connection: close\r\n\r\n`

const HALF_GIB = 512 * 1024 * 1024
const MIB = 1024 * 1024
/** HTTP_BODY_LIMIT_BYTES's default. */
const JSON_LIMIT = 128 * 1024

function expect413(answer: Exchange, limit: number) {
  expect(answer.status).toBe(413)
  expect(answer.head).toContain('connection: close')
  expect(answer.body).toMatchObject({
    success: false,
    error: { code: 'validation.failed', message: `The request body is larger than ${limit} bytes.`, details: [{ field: '(body)', constraint: 'max_bytes' }] },
    meta: { requestId: expect.stringMatching(/^req_/) },
  })
}

describe('a body that announces more than the limit: 413 at once, unread', () => {
  const targets: [string, string, string][] = [
    ['POST', '/api/tags', 'application/json'],
    ['POST', '/api/users/login', 'application/json'],
    ['POST', '/api/globals/branding', 'application/json'],
    ['PATCH', '/api/content/65a1b2c3d4e5f60718293a4b', 'application/json'],
    ['POST', '/admin', 'text/plain;charset=UTF-8'],
    // A route whose body has no bound of its own (a role's permission list) keeps the server's limit.
    ['POST', '/api/v1/roles', 'application/json'],
    ['POST', '/api/media', 'multipart/form-data; boundary=x'],
  ]
  it.each(targets)('%s %s (%s), 512 MiB announced, nothing sent', async (method, path, type) => {
    // Nothing of the body is ever sent: an answer at all, and a 413 rather than the 408 a wait for the body ends in, is "at once".
    const answer = await exchange(requestHead(method, path, { 'Content-Type': type, 'Content-Length': HALF_GIB }))
    const limit = type.startsWith('multipart') ? 10 * MIB : JSON_LIMIT
    expect413(answer, limit)
    // Payload's own `errors: [{ message }]` beside the envelope (the console's forms show it); /api/v1 is the envelope alone.
    if (!path.startsWith('/api/v1')) expect(answer.body.errors).toEqual([{ message: `The request body is larger than ${limit} bytes.` }])
  })
})

describe('a chunked body is cut off once it passes the limit', () => {
  it('POST /api/tags, 64 KiB pieces of a 4 MiB JSON body: 413 before 512 KiB has been sent', async () => {
    const answer = await exchange(requestHead('POST', '/api/tags', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }), {
      piece: Buffer.alloc(64 * 1024, 0x20),
      pieces: 64,
      chunked: true,
    })
    expect413(answer, JSON_LIMIT)
    expect(answer.sentBytes).toBeLessThan(MIB / 2)
  })

  it('a multipart body over 10 MiB without Content-Length: 413 before 11 MiB has been sent', async () => {
    const answer = await exchange(requestHead('POST', '/api/media', { 'Content-Type': 'multipart/form-data; boundary=x', 'Transfer-Encoding': 'chunked' }), {
      piece: Buffer.alloc(256 * 1024, 0x61),
      pieces: 64,
      chunked: true,
    })
    expect413(answer, 10 * MIB)
    expect(answer.sentBytes).toBeLessThan(11 * MIB)
  })
})

describe('bodies within the limit reach the route', () => {
  it('a JSON body of just under the limit on Payload REST: the route answers (403: anonymous), not 413', async () => {
    const body = Buffer.from(JSON.stringify({ label: 'x'.repeat(JSON_LIMIT - 100), facet: 'topic' }))
    const answer = await exchange(requestHead('POST', '/api/tags', { 'Content-Type': 'application/json', 'Content-Length': body.length }), {
      piece: body,
      pieces: 1,
      chunked: false,
    })
    expect(answer.status).toBe(403)
  })

  it('a 2 MiB multipart upload is within the upload limit: the route answers (403: anonymous), not 413', async () => {
    const file = Buffer.concat([
      Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n'),
      Buffer.alloc(2 * MIB, 1),
      Buffer.from('\r\n--x--\r\n'),
    ])
    const answer = await exchange(requestHead('POST', '/api/media', { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': file.length }), {
      piece: file,
      pieces: 1,
      chunked: false,
    })
    expect(answer.status).toBe(403)
  })
})

describe("/api/v1: a body larger than any the route declares is refused unread (src/edge/bodyBound)", () => {
  const login = routeBodyLimit(loginBody, JSON_LIMIT)
  const suggest = routeBodyLimit(suggestSlugBody, JSON_LIMIT)

  it('the anonymous routes read a few KiB, not the server-wide 128 KiB', () => {
    expect(login).toBeLessThan(20 * 1024)
    expect(suggest).toBeLessThan(8 * 1024)
    expect(routeBodyLimit(undefined, JSON_LIMIT)).toBe(JSON_LIMIT)
  })

  it('POST /api/v1/auth/login announcing one byte over its limit: 413 naming that limit, at once, nothing sent', async () => {
    const answer = await exchange(requestHead('POST', '/api/v1/auth/login', { 'Content-Type': 'application/json', 'Content-Length': login + 1 }))
    expect413(answer, login)
  })

  it('the largest sign-in a client may write (every character a 12-byte escape, indented) is read: 401, not 413', async () => {
    const emoji = '\\ud83d\\ude00'
    const body = Buffer.from(`{\n    "email": "${emoji.repeat(320)}",\n    "password": "${emoji.repeat(1024)}"\n}`)
    expect(body.length).toBeLessThanOrEqual(login)
    const answer = await exchange(requestHead('POST', '/api/v1/auth/login', { 'Content-Type': 'application/json', 'Content-Length': body.length }), { piece: body, pieces: 1, chunked: false })
    expect(answer.status).toBe(401)
    expect(answer.body.error.code).toBe('auth.invalid_credentials')
  })

  it('128 KiB of control characters, chunked, to the slug suggestion: 413 once its few KiB have passed, never parsed', async () => {
    const values: string[] = []
    for (let i = 0; values.join(',').length < 128 * 1024 - 200; i++) values.push(`"\\b${i}"`)
    const body = Buffer.from(`{"value":"a","entity":"content","x":[${values.join(',')}]}`)
    const answer = await exchange(requestHead('POST', '/api/v1/slug/suggest', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }), {
      piece: body.subarray(0, 4096),
      pieces: Math.ceil(body.length / 4096),
      chunked: true,
    })
    expect(answer.status).toBe(413)
    expect(answer.body.error.message).toBe(`The request body is larger than ${suggest} bytes.`)
  })
})
