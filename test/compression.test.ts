/**
 * Compression for clients that ask, over real HTTP (the server server.ts runs): br and gzip
 * answers decode to exactly the bytes of the plain answer, for cached answers (list, item,
 * catalog, meta: compressed once per cache entry, the per-request meta spliced on) and for
 * answers built per request (errors, other routes); with Vary, Content-Encoding, an exact
 * Content-Length (HEAD too), one ETag for every coding, and 304 unchanged. Small answers stay plain.
 */
import { request as httpRequest } from 'node:http'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { MIN_COMPRESSED_BYTES } from '../src/edge/compression'
import { content, create, facetId, taxonomy, tokenFor } from './content/helpers'
import { testApp, type TestApp } from './support/app'
import { startHttpServer, type RunningServer } from './support/httpServer'

let app: TestApp
let server: RunningServer
let moderator: string

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }

/** One exchange, the body as the bytes on the wire (node:http decodes nothing). */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { hostname, port } = new URL(server.origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(parts) }))
    })
    req.on('error', reject)
    req.end()
  })
}

function decoded(res: Raw): string {
  const coding = res.headers['content-encoding']
  if (coding === 'br') return zlib.brotliDecompressSync(res.bytes).toString('utf8')
  if (coding === 'gzip') return zlib.gunzipSync(res.bytes).toString('utf8')
  expect(coding).toBeUndefined()
  return res.bytes.toString('utf8')
}

/** The only part of an answer that may differ between two requests with the same X-Request-Id. */
const sameDuration = (text: string) => text.replace(/"durationMs":\d+\}\}$/, '"durationMs":0}}')

const varies = (res: Raw) => String(res.headers.vary ?? '').split(/\s*,\s*/)

beforeAll(async () => {
  app = await testApp()
  const t = await taxonomy(app.payload)
  for (let i = 0; i < 40; i++) {
    await content(app.payload, { title: `Compressible item ${i}: a title long enough to make a page of some size`, group: t.programming.id, channel: t.web.id, platform: t.youtube.id, tagSlugs: ['javascript'] })
  }
  const topic = await facetId(app.payload, 'topic')
  for (let i = 0; i < 20; i++) await create(app.payload, 'tags', { slug: `topic-number-${i}`, label: `Topic number ${i}`, facet: topic })
  await content(app.payload, { slug: 'waiting-item', title: 'Pending and unseen', status: 'pending' })
  moderator = await tokenFor(['content.moderate'])
  server = await startHttpServer()
}, 120_000)

afterAll(() => server?.close())

/** The routes whose answers a cache keeps, and ones built per request, each large enough to compress. */
const LARGE = [
  ['the list (cached)', '/api/v1/content?limit=30'],
  ['a search page (cached)', '/api/v1/content?q=compressible&limit=20'],
  ['the catalog (cached)', '/api/v1/catalog'],
  ['tags (built per request)', '/api/v1/tags'],
] as const

describe('compressed answers decode to the plain answer, byte for byte', () => {
  for (const [what, path] of LARGE) {
    it(`${what}: br and gzip, twice (a miss, then a hit)`, async () => {
      const plain = await raw('GET', path, { 'X-Request-Id': 'same-id' })
      expect(plain.status).toBe(200)
      expect(plain.bytes.length).toBeGreaterThanOrEqual(MIN_COMPRESSED_BYTES)
      expect(plain.headers['content-encoding']).toBeUndefined()
      const text = plain.bytes.toString('utf8')
      // The envelope as it has always been written: key order success, data, pagination, meta.
      expect(JSON.stringify(JSON.parse(text))).toBe(text)
      expect(Object.keys(JSON.parse(text))).toEqual(path.includes('content') || path.includes('tags') ? ['success', 'data', 'pagination', 'meta'] : ['success', 'data', 'meta'])
      for (const coding of ['br', 'gzip', 'br', 'gzip']) {
        const res = await raw('GET', path, { 'X-Request-Id': 'same-id', 'Accept-Encoding': coding })
        expect(res.status).toBe(200)
        expect(res.headers['content-encoding']).toBe(coding)
        expect(Number(res.headers['content-length'])).toBe(res.bytes.length)
        expect(varies(res)).toContain('Accept-Encoding')
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
        expect(sameDuration(decoded(res))).toBe(sameDuration(text))
        // What a phone on a slow connection gains: a fraction of the bytes.
        expect(res.bytes.length).toBeLessThan(plain.bytes.length / 2)
      }
    })
  }

  it('the item and /meta, each in both codings, when the client forbids identity (they are under the threshold)', async () => {
    for (const path of ['/api/v1/content/item-1', '/api/v1/meta']) {
      const plain = await raw('GET', path, { 'X-Request-Id': 'same-id', 'Accept-Encoding': 'br, gzip' })
      expect(plain.status).toBe(200)
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.bytes.length).toBeLessThan(MIN_COMPRESSED_BYTES)
      for (const coding of ['br', 'gzip']) {
        const res = await raw('GET', path, { 'X-Request-Id': 'same-id', 'Accept-Encoding': `${coding}, identity;q=0` })
        expect(res.headers['content-encoding']).toBe(coding)
        expect(Number(res.headers['content-length'])).toBe(res.bytes.length)
        expect(sameDuration(decoded(res))).toBe(sameDuration(plain.bytes.toString('utf8')))
      }
    }
  })

  it('errors: a large validation error is compressed, a small one stays plain; both decode to the plain error', async () => {
    // 20 problems (a refusal lists no more), each echoing its value: well over the compression threshold.
    const path = `/api/v1/content?tags=${Array.from({ length: 50 }, (_, i) => `Bad_Tag_Of_A_Long_Name_To_Echo_${i}`).join(',')}`
    const plain = await raw('GET', path, { 'X-Request-Id': 'same-id' })
    expect(plain.status).toBe(400)
    expect(plain.bytes.length).toBeGreaterThanOrEqual(MIN_COMPRESSED_BYTES)
    for (const coding of ['br', 'gzip']) {
      const res = await raw('GET', path, { 'X-Request-Id': 'same-id', 'Accept-Encoding': coding })
      expect(res.status).toBe(400)
      expect(res.headers['content-encoding']).toBe(coding)
      expect(decoded(res)).toBe(plain.bytes.toString('utf8'))
    }
    const missing = await raw('GET', '/api/v1/content/no-such-item', { 'Accept-Encoding': 'br, gzip' })
    expect(missing.status).toBe(404)
    expect(missing.headers['content-encoding']).toBeUndefined()
    expect(varies(missing)).toContain('Accept-Encoding')
    expect(JSON.parse(missing.bytes.toString('utf8')).error.code).toBe('content.not_found')
  })

  it("Node's fetch (undici) decodes both codings to the same answer", async () => {
    for (const [, path] of LARGE) {
      const plain = sameDuration((await raw('GET', path, { 'X-Request-Id': 'fetch-id' })).bytes.toString('utf8'))
      for (const coding of ['br', 'gzip']) {
        const res = await fetch(`${server.origin}${path}`, { headers: { 'X-Request-Id': 'fetch-id', 'Accept-Encoding': coding } })
        expect(res.status).toBe(200)
        expect(res.headers.get('content-encoding')).toBe(coding)
        expect(sameDuration(await res.text())).toBe(plain)
      }
    }
  })
})

describe('headers, HEAD and 304 with compression', () => {
  it('small answers stay plain, with Vary (identity could be refused), and no Content-Encoding', async () => {
    const res = await raw('GET', '/api/v1/health', { 'Accept-Encoding': 'gzip, deflate, br' })
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(varies(res)).toEqual(['Accept-Encoding', 'Origin'])
    expect(JSON.parse(res.bytes.toString('utf8')).data).toEqual({ status: 'ok' })
  })

  it('a client preferring identity, or naming no coding we have, gets plain bytes', async () => {
    for (const accept of ['gzip;q=0.5, identity', 'deflate, zstd', 'br;q=0, gzip;q=0', '']) {
      const res = await raw('GET', '/api/v1/content?limit=30', { 'Accept-Encoding': accept })
      expect(res.status, accept).toBe(200)
      expect(res.headers['content-encoding'], accept).toBeUndefined()
      expect(JSON.parse(res.bytes.toString('utf8')).data).toHaveLength(30)
    }
  })

  it('the ETag is the same in every coding; If-None-Match answers 304 with no body and no coding', async () => {
    for (const path of ['/api/v1/catalog', '/api/v1/meta']) {
      const plain = await raw('GET', path)
      const br = await raw('GET', path, { 'Accept-Encoding': 'br, identity;q=0' })
      const gzip = await raw('GET', path, { 'Accept-Encoding': 'gzip, identity;q=0' })
      expect(plain.headers.etag).toMatch(/^W\/"/)
      expect(br.headers.etag).toBe(plain.headers.etag)
      expect(gzip.headers.etag).toBe(plain.headers.etag)
      expect(br.headers['content-encoding']).toBe('br')
      for (const accept of ['br', 'gzip', 'br, identity;q=0']) {
        const again = await raw('GET', path, { 'Accept-Encoding': accept, 'If-None-Match': plain.headers.etag as string })
        expect(again.status).toBe(304)
        expect(again.bytes.length).toBe(0)
        expect(again.headers['content-encoding']).toBeUndefined()
        expect(again.headers.etag).toBe(plain.headers.etag)
        expect(again.headers['cache-control']).toBe('public, max-age=300, must-revalidate')
        expect(varies(again)).toContain('Accept-Encoding')
      }
    }
  })

  it("HEAD answers the GET's headers in the same coding, Content-Length of the compressed body included", async () => {
    for (const path of ['/api/v1/catalog', '/api/v1/content?limit=30', '/api/v1/tags']) {
      for (const coding of ['br', 'gzip']) {
        const headers = { 'Accept-Encoding': coding, 'X-Request-Id': 'head-id' }
        const get = await raw('GET', path, headers)
        const head = await raw('HEAD', path, headers)
        expect(head.status).toBe(200)
        expect(head.bytes.length).toBe(0)
        expect(head.headers['content-encoding']).toBe(coding)
        expect(head.headers.vary).toBe(get.headers.vary)
        expect(head.headers.etag).toBe(get.headers.etag)
        // The same bytes but for durationMs, whose digits may differ by one.
        expect(Math.abs(Number(head.headers['content-length']) - get.bytes.length)).toBeLessThanOrEqual(1)
      }
    }
  })

  it('what a caller may see stays apart in every coding: a moderator list is not served to anyone else', async () => {
    const staff = await raw('GET', '/api/v1/content?status=pending', { Authorization: `Bearer ${moderator}`, 'Accept-Encoding': 'br, identity;q=0' })
    expect(staff.status).toBe(200)
    expect(JSON.parse(decoded(staff)).data.map((d: { slug: string }) => d.slug)).toEqual(['waiting-item'])
    const anon = await raw('GET', '/api/v1/content?status=pending', { 'Accept-Encoding': 'br, identity;q=0' })
    expect(anon.status).toBe(403)
    expect(JSON.parse(decoded(anon)).error.code).toBe('auth.forbidden')
    const item = await raw('GET', '/api/v1/content/waiting-item', { 'Accept-Encoding': 'br' })
    expect(item.status).toBe(404)
  })
})
