/**
 * A body nested thousands deep (6 KB) used to overflow the stack (a 500) in the API's
 * validation walk and in Payload's deep copy. It is refused before anything recurses: 400
 * `validation.failed` with `(body)` / `max_depth`, on /api/v1, the console endpoints and
 * Payload's REST (JSON and a multipart form's `_payload`), and nothing is written.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/edge/jsonShape'
import { consoleCookie } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let adminToken: string
let adminCookie: string

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
const DEEP = [arrays(3000), objects(3000)]

beforeAll(async () => {
  app = await testApp()
  const login = await app.request('POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: 'admin-password-123' } })
  adminToken = login.body.data.accessToken
  adminCookie = await consoleCookie(app, 'admin@example.com', 'admin-password-123')
})

const json = { 'content-type': 'application/json' }

function expectRefused(res: { status: number; body: any }, what: string) {
  expect(res.status, what).toBe(400)
  expect(res.body?.error?.code, what).toBe('validation.failed')
  expect(res.body?.error?.details, what).toEqual([{ field: '(body)', constraint: 'max_depth' }])
}

describe('the depth scan', () => {
  it('counts brackets outside strings only, and allows exactly MAX_JSON_DEPTH', () => {
    expect(MAX_JSON_DEPTH).toBe(32)
    expect(nestsDeeperThan(arrays(32))).toBe(false)
    expect(nestsDeeperThan(arrays(33))).toBe(true)
    expect(nestsDeeperThan(objects(33))).toBe(true)
    expect(nestsDeeperThan(JSON.stringify({ title: '['.repeat(5000), quote: '"\\"[[[' }))).toBe(false)
    expect(nestsDeeperThan(JSON.stringify({ rich: { root: { children: [{ children: [{ text: 'x' }] }] } } }))).toBe(false)
  })
})

/** Deeper than MAX_JSON_DEPTH and within every route's body limit (the smallest, a refresh's, ~3 KiB). */
const DEEP_AND_SMALL = [arrays(100), objects(100)]

describe('/api/v1', () => {
  it.each(['/v1/auth/login', '/v1/auth/register', '/v1/auth/refresh', '/v1/slug/suggest', '/v1/content/submit', '/v1/tags'])(
    'POST %s: 400 max_depth within its body limit; thousands deep, the same or 413 past that limit; never a 500',
    async (path) => {
      for (const rawBody of DEEP_AND_SMALL) expectRefused(await app.request('POST', path, { rawBody, headers: json, token: adminToken }), path)
      for (const rawBody of DEEP) {
        const res = await app.request('POST', path, { rawBody, headers: json, token: adminToken })
        if (res.status === 413) expect(res.body.error.details, path).toEqual([{ field: '(body)', constraint: 'max_bytes' }])
        else expectRefused(res, path)
      }
    },
  )
})

describe("Payload's REST and the console endpoints", () => {
  it('JSON bodies: create and update, nothing written', async () => {
    const before = await app.payload.count({ collection: 'tags' })
    for (const rawBody of DEEP) {
      expectRefused(await app.request('POST', '/tags', { rawBody, headers: json, token: adminToken }), 'POST /api/tags')
      expectRefused(await app.request('PATCH', '/tags?where[slug][equals]=x', { rawBody, headers: json, token: adminToken }), 'PATCH /api/tags')
      expectRefused(await app.request('POST', '/users/login', { rawBody, headers: json }), 'POST /api/users/login')
      expectRefused(await app.request('POST', '/surfaces/tree/reorder', { rawBody, headers: json, token: adminToken }), 'console endpoint')
    }
    expect(await app.payload.count({ collection: 'tags' })).toEqual(before)
  })

  it("a multipart form's _payload field, as the admin panel's forms send it", async () => {
    const form = new FormData()
    form.set('_payload', objects(3000))
    const multipart = new Request('http://x', { method: 'POST', body: form })
    const headers = { 'content-type': multipart.headers.get('content-type')! }
    const rawBody = await multipart.text()
    expectRefused(await app.request('POST', '/tags', { rawBody, headers, token: adminToken }), 'multipart create')
    expectRefused(await app.request('POST', '/surfaces/tree/create', { rawBody, headers, token: adminToken }), 'multipart console endpoint')
  })

  it('an ordinary save still goes through', async () => {
    const facet = (await app.payload.find({ collection: 'facets', limit: 1 })).docs[0]!
    const res = await app.request('POST', '/tags', { body: { slug: 'depth-ok', label: 'Depth ok', facet: facet.id }, headers: { cookie: adminCookie } })
    expect(res.status, res.text).toBe(201)
  })
})
