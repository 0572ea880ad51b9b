/**
 * TRUST_PROXY and the client address: the address is read from the RIGHT of
 * X-Forwarded-For, walking from the peer (the socket, or the right-most entry where there is
 * no socket) leftwards through the trusted hops, as Express's `trust proxy` does. A
 * client-chosen left-most entry must never give a fresh rate-limit budget.
 */
import { request as httpRequest, type Server } from 'node:http'
import { isIP, type AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { dispatchApi } from '../../endpoints'
import { clientIp } from '../../src/edge/clientIp'
import { resetConfig } from '../../src/platform/config'
import { serveApi } from '../../src/edge/nodeAdapter'
import { createAppServer } from '../../src/edge/nodeServer'
import { ADMIN } from '../auth/helpers'
import { testApp } from '../support/app'

const BAD = { email: ADMIN.email, password: 'wrong-password-000' }

function useTrustProxy(value: string | undefined): void {
  if (value === undefined) delete process.env.TRUST_PROXY
  else process.env.TRUST_PROXY = value
  resetConfig()
}

afterEach(() => useTrustProxy(undefined))

const headers = (xff: string) => ({ get: (name: string) => (name === 'x-forwarded-for' ? xff : null) })

describe('clientIp walks X-Forwarded-For from the right', () => {
  it('untrusted (no TRUST_PROXY): the peer address, whatever the client wrote to its left', () => {
    useTrustProxy(undefined)
    expect(clientIp(headers('1.1.1.1, 2.2.2.2, 198.51.100.7'))).toBe('198.51.100.7')
    useTrustProxy('false')
    expect(clientIp(headers('1.1.1.1, 198.51.100.7'))).toBe('198.51.100.7')
  })

  it('a hop count trusts that many proxies from the right; `true` counts as one hop', () => {
    useTrustProxy('1')
    expect(clientIp(headers('6.6.6.6, 198.51.100.7, 10.0.0.1'))).toBe('198.51.100.7')
    useTrustProxy('true')
    expect(clientIp(headers('6.6.6.6, 198.51.100.7, 10.0.0.1'))).toBe('198.51.100.7')
    useTrustProxy('2')
    expect(clientIp(headers('6.6.6.6, 198.51.100.7, 10.0.0.2, 10.0.0.1'))).toBe('198.51.100.7')
    // More hops than entries: the left-most there is.
    useTrustProxy('5')
    expect(clientIp(headers('198.51.100.7, 10.0.0.1'))).toBe('198.51.100.7')
  })

  it('an address list trusts exactly those proxies (IPs and CIDRs, IPv4-mapped peers included)', () => {
    useTrustProxy('127.0.0.1, 10.0.0.0/8, fd00::/8')
    expect(clientIp(headers('6.6.6.6, 198.51.100.7, 10.9.8.7, 127.0.0.1'))).toBe('198.51.100.7')
    expect(clientIp(headers('6.6.6.6, 198.51.100.7, fd00::1, ::ffff:127.0.0.1'))).toBe('198.51.100.7')
    // The peer is not a trusted proxy: it is the client, whatever it claims.
    expect(clientIp(headers('10.0.0.5, 198.51.100.8'))).toBe('198.51.100.8')
  })

  it('odd chains (empty entries, brackets, mapped IPv4, garbage) give what the plain left-ward walk gives', () => {
    // The walk written plainly, as a reference: every non-empty entry, then leftwards from the peer.
    const reference = (xff: string, trusted: (address: string, hop: number) => boolean): string => {
      const unwrap = (e: string) => {
        const bare = e.startsWith('[') && e.endsWith(']') ? e.slice(1, -1) : e
        return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1] ?? bare
      }
      const chain = xff.split(',').map((p) => unwrap(p.trim())).filter(Boolean)
      if (chain.length === 0) return 'unknown'
      let i = chain.length - 1
      while (i > 0 && trusted(chain[i]!, chain.length - 1 - i)) i -= 1
      return isIP(chain[i]!) === 0 ? 'unknown' : chain[i]!
    }
    const chains = [
      '198.51.100.7',
      ' 198.51.100.7 ',
      '198.51.100.7,',
      ',198.51.100.7',
      '1.1.1.1,, 198.51.100.7,, 10.0.0.1',
      ',,,',
      ' , ',
      '[2001:db8::1], 10.0.0.1',
      '::ffff:198.51.100.9, ::FFFF:10.0.0.1',
      'not-an-ip, 10.0.0.1',
      '6.6.6.6, not-an-ip',
      '6.6.6.6, 198.51.100.7, 10.0.0.2, 10.0.0.1',
    ]
    const configs: [string | undefined, (address: string, hop: number) => boolean][] = [
      [undefined, () => false],
      ['1', (_a, hop) => hop < 1],
      ['2', (_a, hop) => hop < 2],
      ['10.0.0.0/8', (a) => /^10\./.test(a)],
    ]
    for (const [value, trusted] of configs) {
      useTrustProxy(value)
      for (const xff of chains) expect(clientIp(headers(xff)), `${value} ${xff}`).toBe(reference(xff, trusted))
    }
  })

  it('refuses a malformed TRUST_PROXY at start-up', async () => {
    const { parseConfig, ConfigError } = await import('../../src/platform/config')
    for (const bad of ['-1', '10.0.0.0/33', 'proxy.example', '1.2.3']) {
      expect(() => parseConfig({ NODE_ENV: 'test', TRUST_PROXY: bad }), bad).toThrow(ConfigError)
    }
  })
})

describe('TRUST_PROXY=1 in front of the login rate limit (in-process)', () => {
  it('the 11th bad login from one real client is 429, whatever left-most entry it invents', async () => {
    useTrustProxy('1')
    const app = await testApp()
    const statuses: number[] = []
    for (let i = 0; i < 12; i += 1) {
      // The client writes its own X-Forwarded-For; the proxy (10.0.0.1) appends the real client.
      const xff = `203.0.113.${i + 1}, 198.51.100.20, 10.0.0.1`
      const res = await app.request('POST', '/v1/auth/login', { body: BAD, headers: { 'x-forwarded-for': xff } })
      statuses.push(res.status)
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses.slice(10)).toEqual([429, 429])
  })

  it('the console sign-in (/api/users/login) counts the same client the same way', async () => {
    useTrustProxy('1')
    const app = await testApp()
    const statuses: number[] = []
    for (let i = 0; i < 11; i += 1) {
      const xff = `203.0.113.${i + 50}, 198.51.100.21, 10.0.0.1`
      const res = await app.request('POST', '/users/login', { body: BAD, headers: { 'x-forwarded-for': xff } })
      statuses.push(res.status)
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses[10]).toBe(429)
  })
})

describe('over a real HTTP server (the socket is the peer)', () => {
  let server: Server
  let port: number

  beforeAll(async () => {
    const app = await testApp()
    server = createAppServer({
      api: (req, res, security) => serveApi(dispatchApi, req, res, app.payload, 'http://127.0.0.1', security),
      other: (_req, res) => res.writeHead(404).end(),
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const login = (xff: string | undefined, body: unknown) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const text = JSON.stringify(body)
      const h: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }
      if (xff) h['X-Forwarded-For'] = xff
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/auth/login', headers: h }, (res) => {
        const parts: Buffer[] = []
        res.on('data', (c: Buffer) => parts.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString('utf8')) }))
      })
      req.on('error', reject)
      req.end(text)
    })

  async function lastRefreshTokenIp(): Promise<string> {
    const app = await testApp()
    const found = await app.payload.find({ collection: 'refresh-tokens', sort: '-createdAt', limit: 1, overrideAccess: true })
    return String((found.docs[0] as { createdIp?: string }).createdIp)
  }

  it('untrusted: the socket address is the client, a sent X-Forwarded-For is ignored', async () => {
    useTrustProxy(undefined)
    expect((await login('198.51.100.30', ADMIN)).status).toBe(200)
    expect(await lastRefreshTokenIp()).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
  })

  it('TRUST_PROXY=1: the entry the proxy (the socket) appended is the client; the left-most is not', async () => {
    useTrustProxy('1')
    const statuses: number[] = []
    for (let i = 0; i < 11; i += 1) statuses.push((await login(`203.0.113.${i + 100}, 198.51.100.31`, BAD)).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses[10]).toBe(429)
    expect((await login('203.0.113.200, 198.51.100.32', ADMIN)).status).toBe(200)
    expect(await lastRefreshTokenIp()).toBe('198.51.100.32')
  })

  it('TRUST_PROXY as an address list: walks through the trusted proxies only', async () => {
    useTrustProxy('127.0.0.1,10.0.0.0/8')
    expect((await login('203.0.113.9, 198.51.100.33, 10.1.2.3', ADMIN)).status).toBe(200)
    expect(await lastRefreshTokenIp()).toBe('198.51.100.33')
    useTrustProxy('192.0.2.1')
    // The socket (127.0.0.1) is not a listed proxy: it is the client.
    expect((await login('198.51.100.34', ADMIN)).status).toBe(200)
    expect(await lastRefreshTokenIp()).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
  })
})
