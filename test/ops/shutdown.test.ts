/**
 * Graceful shutdown of a real server process (test/ops/support/apiServer.ts, server.ts's
 * runtime): on SIGTERM it refuses new connections, answers /ready with 503 while draining,
 * finishes the request in flight, and exits 0 with every log line written.
 *
 * The request in flight is honest: a login whose body the client is still sending when the
 * signal comes (half before, half after), exactly what a slow client looks like.
 */
import { afterAll, describe, expect, it } from 'vitest'

import { rawConnection, startServer, tryConnect, type ServerProcess } from './support/serverProcess'

let server: ServerProcess | undefined

afterAll(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL')
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('graceful shutdown', () => {
  it('on SIGTERM: no new connections, /ready 503 while draining, the request in flight completes, exit 0 with server.stopped', async () => {
    server = await startServer({})
    const { port } = server

    const ready = await fetch(`http://127.0.0.1:${port}/api/v1/ready`)
    expect(ready.status).toBe(200)

    // A login whose body is half sent.
    const body = JSON.stringify({ email: 'admin@example.com', password: 'admin-password-123' })
    const login = await rawConnection(port)
    login.socket.write(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: in-flight-login\r\n\r\n${body.slice(0, 10)}`,
    )
    // A readiness probe whose request line has arrived, its headers not yet complete.
    const probe = await rawConnection(port)
    probe.socket.write('GET /api/v1/ready HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: draining-probe\r\n')
    await sleep(300)

    server.child.kill('SIGTERM')
    const stopping = await server.waitForLine((l) => l.msg === 'server.stopping')
    expect(stopping).toMatchObject({ level: 'info', signal: 'SIGTERM', timeoutSeconds: 10 })

    // The listener is closed: a new connection is refused.
    const refused = await tryConnect(port)
    expect(refused).toBe('ECONNREFUSED')

    // The probe, finished now, is answered 503 service.unavailable (draining).
    probe.socket.write('\r\n')
    const probed = await probe.answer
    expect(probed.status).toBe(503)
    expect(probed.body).toMatchObject({ success: false, error: { code: 'service.unavailable', details: { waiting: expect.arrayContaining(['draining']) } } })
    expect(probed.headers).toMatch(/\r\nConnection: close/i)

    // The login completes: 200 with tokens.
    await sleep(200)
    login.socket.write(body.slice(10))
    const loggedIn = await login.answer
    expect(loggedIn.status).toBe(200)
    expect(loggedIn.body.success).toBe(true)
    expect(typeof loggedIn.body.data.accessToken).toBe('string')

    const exit = await server.exited
    expect(exit).toEqual({ code: 0, signal: null })
    const lines = server.lines
    expect(lines.every((l) => !('unparsed' in l))).toBe(true)
    expect(lines.find((l) => l.requestId === 'in-flight-login' && l.msg === 'request.completed')).toMatchObject({ statusCode: 200 })
    expect(lines.find((l) => l.requestId === 'draining-probe' && l.msg === 'request.completed')).toMatchObject({ statusCode: 503 })
    expect(lines.at(-1)).toMatchObject({ msg: 'server.stopped', signal: 'SIGTERM', timedOut: false })
    expect(server.stderr()).toBe('')
  }, 120_000)
})
