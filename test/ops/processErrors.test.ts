/**
 * No request ends a process. A server process (server/serve) whose page handler fails in
 * every way a handler can (thrown, rejected, a non-Error thrown, an error left in a timer, an
 * emitter or a promise nobody awaits) answers that request's error and keeps serving from the
 * same process; each failure is one line at error or fatal (a caller's 4xx left behind: warn),
 * never info. In a cluster, the primary restarts workers that die for as long as it runs and
 * never exits because they all died (its restart timer once let it exit with code 0).
 */
import { request as httpRequest } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startServer, type ServerProcess } from './support/serverProcess'

const faulty = path.join(import.meta.dirname, 'support/faultyServer.ts')

function get(port: number, urlPath: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: urlPath, headers: { connection: 'close' }, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
    })
    req.on('error', reject)
    req.end()
  })
}

const settle = () => new Promise((r) => setTimeout(r, 300))

describe('one server process: a failing request is that request’s error', () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer({}, faulty)
  }, 120_000)
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL')
  })

  const cases: [how: string, status: number, msg: string, level: string][] = [
    ['sync', 500, 'request.failed', 'error'],
    ['async', 500, 'request.failed', 'error'],
    ['not-an-error', 500, 'request.failed', 'error'],
    ['emitter', 500, 'request.failed', 'error'],
    ['timer', 200, 'process.uncaught_exception', 'fatal'],
    ['orphan', 200, 'process.unhandled_rejection', 'error'],
    ['orphan-client-error', 200, 'process.unhandled_rejection', 'warn'],
    ['payload', 400, 'process.unhandled_rejection', 'warn'],
  ]
  it.each(cases)('/fault/%s: answered %i, one %s line at %s, and the same process serves the next request', async (how, status, msg, level) => {
    const pid = String(server.child.pid)
    const before = server.lines.length
    const answer = await get(server.port, `/fault/${how}`)
    expect(answer.status).toBe(status)
    await settle()
    const after = await get(server.port, '/ok')
    expect(after).toEqual({ status: 200, text: pid })
    // The API too, on the same process.
    expect((await get(server.port, '/api/v1/health')).status).toBe(200)
    // Lines reach stdout within a tenth of a second (src/platform/logging); the health check's line comes after the failure's.
    await server.waitForLine((l) => l.route === 'GET /api/v1/health' && server.lines.indexOf(l) >= before)
    const lines = server.lines.slice(before).filter((l) => l.msg === msg)
    expect(lines).toHaveLength(1)
    expect(lines[0]!.level).toBe(level)
    expect(server.child.exitCode).toBeNull()
    expect(server.lines.some((l) => l.msg === 'process.crashed')).toBe(false)
  })

  it('a failure is never logged at info', () => {
    const faults = server.lines.filter((l) => ['request.failed', 'process.uncaught_exception', 'process.unhandled_rejection'].includes(l.msg))
    expect(faults.length).toBeGreaterThanOrEqual(8)
    expect(faults.filter((l) => l.level === 'info')).toEqual([])
  })
})

describe('a cluster whose workers all die', () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer({ WEB_CONCURRENCY: '2' }, faulty)
    await server.waitForLine(() => server.lines.filter((x) => x.msg === 'server.listening').length >= 2)
  }, 180_000)
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL')
  })

  it('the primary stays, restarts both and serves again; it never exits on its own', async () => {
    const workers = server.lines.filter((l) => l.msg === 'server.listening').map((l) => l.pid as number)
    expect(workers).toHaveLength(2)
    process.kill(workers[0]!, 'SIGKILL')
    await settle()
    process.kill(workers[1]!, 'SIGKILL')
    await server.waitForLine(() => server.lines.filter((l) => l.msg === 'cluster.worker_died').length >= 2)
    const died = server.lines.filter((l) => l.msg === 'cluster.worker_died')
    expect(died.every((l) => l.level === 'error' && l.pid === server.child.pid)).toBe(true)
    // New workers, forked by the same primary, listen and serve.
    await server.waitForLine(() => server.lines.filter((l) => l.msg === 'server.listening' && !workers.includes(l.pid)).length >= 2, 120_000)
    expect(server.child.exitCode).toBeNull()
    const answer = await get(server.port, '/ok')
    expect(answer.status).toBe(200)
    expect(workers).not.toContain(Number(answer.text))
  }, 180_000)
})
