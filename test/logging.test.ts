import { describe, expect, it } from 'vitest'

import { logger, logRequestCompleted, readableError, type RequestCompleted } from '../src/platform/logging'
import { testApp } from './support/app'

describe('structured logs', () => {
  it('writes exactly one request.completed line per /api/v1 request with the spec fields', async () => {
    const app = await testApp()
    const before = app.logs.length
    const res = await app.request('GET', '/v1/meta', { headers: { 'X-Request-Id': 'log-test-1' } })
    const lines = app.logs.slice(before).filter((l) => l.msg === 'request.completed')
    expect(lines).toHaveLength(1)
    const line = lines[0]!
    expect(line).toMatchObject({
      level: 'info',
      requestId: 'log-test-1',
      route: 'GET /api/v1/meta',
      statusCode: 200,
      msg: 'request.completed',
    })
    expect(line.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(Number.isInteger(line.durationMs)).toBe(true)
    expect(res.status).toBe(200)
  })

  it('logs 404s on the catch-all route and 5xx at error level', async () => {
    const app = await testApp()
    const before = app.logs.length
    await app.request('GET', '/v1/nope', { headers: { 'X-Request-Id': 'log-test-2' } })
    const line = app.logs.slice(before).find((l) => l.requestId === 'log-test-2' && l.msg === 'request.completed')
    expect(line).toMatchObject({ statusCode: 404, route: 'GET /api/v1/*', level: 'info' })
  })

  it('never writes an access token sent in the Authorization header', async () => {
    const app = await testApp()
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2VjcmV0LXNpZ25hdHVyZQ'
    await app.request('GET', '/v1/meta', { headers: { Authorization: `Bearer ${token}` } })
    expect(app.rawLogs.join('')).not.toContain(token)
  })

  it('redacts passwords, hashes and tokens wherever they sit in a logged object', async () => {
    const app = await testApp()
    logger().info(
      {
        password: 'plain-password-1',
        user: { passwordHash: '$argon2id$v=19$secret', email: 'x@example.com' },
        body: { refreshToken: 'refresh-token-value', accessToken: 'access-token-value' },
        headers: { authorization: 'Bearer abc.def.ghi' },
        deep: { a: { b: { newPassword: 'new-password-value' } } },
      },
      'redaction.check',
    )
    const raw = app.rawLogs.join('')
    for (const secret of ['plain-password-1', '$argon2id$v=19$secret', 'refresh-token-value', 'access-token-value', 'abc.def.ghi', 'new-password-value']) {
      expect(raw).not.toContain(secret)
    }
    const line = app.logs.find((l) => l.msg === 'redaction.check')!
    expect(line.user.email).toBe('x@example.com')
    expect(line.password).toBe('[redacted]')
  })
  it('request.completed carries its fixed fields and nothing else, whatever the caller hands it', async () => {
    const app = await testApp()
    // A caller that smuggles extra fields in (the type forbids it; the cast stands for a mistake).
    const smuggled = {
      requestId: 'log-fixed-shape',
      route: 'POST /api/v1/auth/login',
      userId: 'user-1',
      statusCode: 200,
      durationMs: 4,
      password: 'plain-password-2',
      authorization: 'Bearer leaked.token.value',
      body: { refreshToken: 'refresh-token-2' },
    } as RequestCompleted
    logRequestCompleted('info', smuggled)
    const raw = app.rawLogs.join('')
    for (const secret of ['plain-password-2', 'leaked.token.value', 'refresh-token-2']) expect(raw).not.toContain(secret)
    const line = app.logs.find((l) => l.requestId === 'log-fixed-shape')!
    expect(Object.keys(line).sort()).toEqual(['durationMs', 'level', 'msg', 'pid', 'requestId', 'route', 'statusCode', 'ts', 'userId'])
    expect(line).toMatchObject({ level: 'info', msg: 'request.completed', route: 'POST /api/v1/auth/login', userId: 'user-1', statusCode: 200, durationMs: 4 })
  })

  it('request.completed stays one line of valid JSON whatever text its fields hold (plain text quoted as it is, the rest escaped)', async () => {
    const app = await testApp()
    const cases: RequestCompleted[] = [
      { requestId: 'req_01PLAIN.id:x-1', route: 'GET /api/v1/content/:slug', userId: undefined, statusCode: 200, durationMs: 1 },
      { requestId: 'quote"back\\slash', route: 'GET /api/v1/"x"\n{"level":"fatal"}', userId: 'u"1\u2028é', statusCode: 404, durationMs: 2 },
      { requestId: 'tab\there', route: 'GET /api/v1/*', userId: 'ctl\u0001', statusCode: 500, durationMs: 3 },
    ]
    const before = app.rawLogs.length
    for (const c of cases) logRequestCompleted('info', c)
    const raw = app.rawLogs.slice(before).join('')
    expect(raw.split('\n').filter(Boolean)).toHaveLength(cases.length)
    for (const c of cases) {
      const line = app.logs.find((l) => l.requestId === c.requestId)!
      expect(line).toMatchObject({ route: c.route, statusCode: c.statusCode, durationMs: c.durationMs })
      expect(line.userId).toBe(c.userId)
    }
    expect(raw).toContain('"requestId":"req_01PLAIN.id:x-1","route":"GET /api/v1/content/:slug"')
  })

  it('a login request writes no password or token on any line, request.completed included', async () => {
    const app = await testApp()
    const before = app.rawLogs.length
    const res = await app.request('POST', '/v1/auth/login', {
      body: { email: 'nobody@example.com', password: 'wrong-password-xyz-1' },
      headers: { 'X-Request-Id': 'log-login-1' },
    })
    expect(res.status).toBe(401)
    const raw = app.rawLogs.slice(before).join('')
    expect(raw).toContain('log-login-1')
    expect(raw).not.toContain('wrong-password-xyz-1')
  })
})

describe('errors in a log line', () => {
  it("a driver's error (its topology circular) is written readably: type, message, code, stack, causes", async () => {
    const { MongoClient } = await import('mongodb')
    const client = new MongoClient('mongodb://127.0.0.1:9/x?serverSelectionTimeoutMS=100&directConnection=true')
    const selection = (await client.db('x').command({ ping: 1 }).then(() => null, (e: unknown) => e)) as Error
    await client.close()
    const wrapped = new Error('start failed', { cause: Object.assign(selection, { code: 'ESELECT' }) })
    const out = readableError(wrapped) as Record<string, unknown>
    expect(out).toMatchObject({ type: 'Error', message: 'start failed', cause: { type: 'MongoServerSelectionError', code: 'ESELECT' } })
    expect(String((out.cause as { message: string }).message)).toContain('127.0.0.1:9')
    expect(JSON.stringify(out)).not.toContain('unable to serialize')
    // Plain values only: the driver's topology and the rest of its properties stay out.
    const allowed = ['type', 'message', 'code', 'codeName', 'errorLabels', 'stack', 'cause']
    expect(Object.keys(out.cause as object).every((k) => allowed.includes(k))).toBe(true)
    expect(JSON.parse(JSON.stringify(out))).toEqual(out)
  })
})
