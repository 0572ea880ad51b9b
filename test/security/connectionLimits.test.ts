/**
 * A cap on connections (issue 52.4): one client held ~20,000 idle connections, the process's
 * descriptor limit, and then every write answered 503 (logins too) until it let go. Now a process
 * holds at most HTTP_MAX_CONNECTIONS (below its descriptor limit less a reserve), one address at
 * most HTTP_MAX_CONNECTIONS_PER_ADDRESS, and an idle connection is closed sooner. The caps are
 * filled here (small ones), and a login and a write still succeed on a connection already open;
 * each refusal is clean: a connection past either cap is closed as it opens (nothing read from it,
 * no one else's touched), and connections already open go on.
 */
import { Agent, request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { connectionCap, DESCRIPTOR_RESERVE, descriptorLimit, HEADERS_SECONDS } from '../../src/edge/connectionLimits'
import { resetConfig } from '../../src/platform/config'
import { ADMIN } from '../auth/helpers'
import { testApp } from '../support/app'
import { startHttpServer, type RunningServer } from '../support/httpServer'

/** Connects and waits: 'open' while the server keeps it, 'closed' once the server has closed it (within `waitMs`). */
function idleConnection(port: number): Promise<{ socket: Socket; state: () => 'open' | 'closed' }> {
  return new Promise((resolve, reject) => {
    let closed = false
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, state: () => (closed ? 'closed' : 'open') }))
    socket.on('end', () => (closed = true))
    socket.on('close', () => (closed = true))
    socket.on('error', () => (closed = true))
    socket.once('error', reject)
  })
}

/** A request on a given keep-alive agent (one connection), its status and body. */
function call(agent: Agent, port: number, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body)
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        const parts: Buffer[] = []
        res.on('data', (c: Buffer) => parts.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString('utf8') || 'null'), headers: res.headers }))
      },
    )
    req.on('error', reject)
    req.end(data)
  })
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

/** A server of the production kind under `env`'s limits for the enclosing block, and a way to open idle connections to it. */
function cappedServer(env: Record<string, string>) {
  const state = { port: 0, sockets: [] as Socket[] }
  let server: RunningServer | undefined
  beforeAll(async () => {
    await testApp()
    Object.assign(process.env, env)
    resetConfig()
    server = await startHttpServer()
    state.port = Number(new URL(server.origin).port)
  }, 120_000)
  afterAll(async () => {
    for (const s of state.sockets) s.destroy()
    await server?.close()
    for (const name of Object.keys(env)) delete process.env[name]
    resetConfig()
  })
  /** `count` idle connections, each open or closed by the server. */
  const idle = async (count: number) => {
    const out = []
    for (let i = 0; i < count; i++) {
      const c = await idleConnection(state.port)
      state.sockets.push(c.socket)
      out.push(c)
    }
    await settle()
    return out
  }
  return { state, idle }
}

describe('the per-process cap', () => {
  const CAP = 40
  const { state, idle: open } = cappedServer({ HTTP_MAX_CONNECTIONS: String(CAP), HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' })

  it('filled: new connections are closed as they open; on a connection already open a login and a write succeed', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    expect((await call(agent, state.port, 'GET', '/api/v1/health')).status).toBe(200)
    const idle = await open(CAP + 20)
    // The agent's connection is one of the CAP; the rest are the first idle ones.
    expect(idle.filter((c) => c.state() === 'open').length).toBe(CAP - 1)
    expect(idle.slice(CAP - 1).every((c) => c.state() === 'closed')).toBe(true)
    const login = await call(agent, state.port, 'POST', '/api/v1/auth/login', { email: ADMIN.email, password: ADMIN.password })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    const tag = await call(agent, state.port, 'POST', '/api/v1/tags', { label: 'Capped', facet: 'topic' }, login.body.data.accessToken)
    expect(tag.status, JSON.stringify(tag.body)).toBe(201)
    // Once some go, new connections are taken again.
    for (const c of idle.slice(0, 5)) c.socket.destroy()
    await settle()
    expect((await call(new Agent({ keepAlive: false }), state.port, 'GET', '/api/v1/health')).status).toBe(200)
    agent.destroy()
  })
})

describe('the per-address cap', () => {
  const PER_ADDRESS = 5
  const { state, idle: open } = cappedServer({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS) })

  it('one address past its cap: a new connection is closed as it opens; the address’s open ones go on (a login, a write)', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    expect((await call(agent, state.port, 'GET', '/api/v1/health')).status).toBe(200)
    const idle = await open(PER_ADDRESS + 5)
    expect(idle.filter((c) => c.state() === 'open').length).toBe(PER_ADDRESS - 1)
    const over = new Agent({ keepAlive: false })
    await expect(call(over, state.port, 'GET', '/api/v1/health')).rejects.toThrow()
    const login = await call(agent, state.port, 'POST', '/api/v1/auth/login', { email: ADMIN.email, password: ADMIN.password })
    expect(login.status).toBe(200)
    expect((await call(agent, state.port, 'POST', '/api/v1/tags', { label: 'Per address', facet: 'topic' }, login.body.data.accessToken)).status).toBe(201)
    // Once some go, the address may connect again.
    for (const c of idle) c.socket.destroy()
    await settle()
    expect((await call(over, state.port, 'GET', '/api/v1/health')).status).toBe(200)
    agent.destroy()
  })

  it('an IPv6 client counts by its /64; IPv4 (mapped or not) by its address', async () => {
    const { addressKey } = await import('../../src/edge/connectionLimits')
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'))
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'))
    expect(addressKey('::ffff:10.0.0.1')).toBe('10.0.0.1')
    expect(addressKey('10.0.0.1')).toBe('10.0.0.1')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
  })
})

describe('the defaults', () => {
  it('the cap stays below the descriptor limit less the reserve, at most 10,000; idle connections close after 10 s (65 behind a proxy or TLS terminator), headers within 10 s', () => {
    expect(connectionCap(undefined, 1024)).toBe(1024 - DESCRIPTOR_RESERVE)
    expect(connectionCap(undefined, 1_048_576)).toBe(10_000)
    expect(connectionCap(50_000, 20_000)).toBe(20_000 - DESCRIPTOR_RESERVE)
    expect(connectionCap(100, 20_000)).toBe(100)
    // Linux reports this process's limit.
    expect(descriptorLimit()).toBeGreaterThan(0)
    expect(HEADERS_SECONDS).toBe(10)
  })

  it('a server made as production makes it: the cap, the idle time and the headers timeout set', async () => {
    resetConfig()
    try {
      const { createAppServer } = await import('../../src/edge/nodeServer')
      const made = createAppServer({ api: () => undefined, other: () => undefined })
      expect(made.maxConnections).toBe(connectionCap())
      expect(made.keepAliveTimeout).toBe(10_000)
      expect(made.headersTimeout).toBe(10_000)
      process.env.TRUST_PROXY = '1'
      resetConfig()
      expect(createAppServer({ api: () => undefined, other: () => undefined }).keepAliveTimeout).toBe(65_000)
      delete process.env.TRUST_PROXY
      process.env.BEHIND_TLS = 'true'
      resetConfig()
      expect(createAppServer({ api: () => undefined, other: () => undefined }).keepAliveTimeout).toBe(65_000)
    } finally {
      delete process.env.TRUST_PROXY
      delete process.env.BEHIND_TLS
      resetConfig()
    }
  })
})
