/**
 * The API's updates honour If-Match (issue 53.2): a record's answer names its stored version as
 * its ETag; an update sent with a tag the record no longer has is refused, 412
 * `precondition.failed` with the current tag, and nothing is written; without If-Match an update
 * is unconditional, as the specification's clients send none.
 */
import { describe, expect, it } from 'vitest'

import { preconditionGuard } from '../../collections/hooks/preconditions'
import { PERMISSIONS } from '../../src/auth/permissions'
import { staffWith, taxonomy, tokenFor } from '../content/helpers'
import { testApp } from '../support/app'

type App = Awaited<ReturnType<typeof testApp>>
let ready: Promise<{ app: App; admin: string; adminId: string }> | undefined
function setup() {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    const adminId = String((await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!.id)
    return { app, adminId, admin: await tokenFor([...PERMISSIONS], adminId) }
  })()
  return ready
}

const VERSION_TAG = /^W\/"[0-9a-z]+"$/

async function storedTag(app: App, slug: string) {
  return (await app.payload.find({ collection: 'tags', where: { slug: { equals: slug } }, overrideAccess: true, depth: 0 })).docs[0]!
}

describe('conditional updates (If-Match)', () => {
  it('answers a tag with its version; a stale If-Match is 412 with the current tag and writes nothing', async () => {
    const { app, admin } = await setup()
    expect((await app.request('POST', '/v1/tags', { token: admin, body: { slug: 'etag-a', label: 'First', facet: 'topic' } })).status).toBe(201)
    const read = await app.request('GET', '/v1/tags/etag-a')
    expect(read.status).toBe(200)
    const v1 = read.headers.get('etag')!
    expect(v1).toMatch(VERSION_TAG)

    const first = await app.request('PATCH', '/v1/tags/etag-a', { token: admin, body: { label: 'Second' }, headers: { 'If-Match': v1 } })
    expect(first.status).toBe(200)
    const v2 = first.headers.get('etag')!
    expect(v2).toMatch(VERSION_TAG)
    expect(v2).not.toBe(v1)
    expect((await app.request('GET', '/v1/tags/etag-a')).headers.get('etag')).toBe(v2)

    // Someone who read v1 saves: refused, told the current version; the record keeps Second.
    const stale = await app.request('PATCH', '/v1/tags/etag-a', { token: admin, body: { label: 'Lost' }, headers: { 'If-Match': v1 } })
    expect(stale.status).toBe(412)
    expect(stale.body.error).toMatchObject({ code: 'precondition.failed', details: { etag: v2 } })
    expect((await storedTag(app, 'etag-a')).label).toBe('Second')

    // An update that changes nothing is judged too; `*`, a list, and the strong form of the tag match.
    expect((await app.request('PATCH', '/v1/tags/etag-a', { token: admin, body: {}, headers: { 'If-Match': v1 } })).status).toBe(412)
    expect((await app.request('PATCH', '/v1/tags/etag-a', { token: admin, body: {}, headers: { 'If-Match': v2.slice(2) } })).status).toBe(200)
    expect((await app.request('PATCH', '/v1/tags/etag-a', { token: admin, body: { label: 'Third' }, headers: { 'If-Match': `${v1}, ${v2}` } })).status).toBe(200)
    const any = await app.request('PATCH', '/v1/tags/etag-a', { token: admin, body: { label: 'Fourth' }, headers: { 'If-Match': '*' } })
    expect(any.status).toBe(200)
    // Without If-Match the write is unconditional.
    const plain = await app.request('PATCH', '/v1/tags/etag-a', { token: admin, body: { label: 'Fifth' } })
    expect(plain.status).toBe(200)
    expect(plain.body.data.label).toBe('Fifth')
    expect((await storedTag(app, 'etag-a')).label).toBe('Fifth')
  })

  it('refuses a malformed If-Match with 400, naming the header', async () => {
    const { app, admin } = await setup()
    await app.request('POST', '/v1/tags', { token: admin, body: { slug: 'etag-b', label: 'B', facet: 'topic' } })
    for (const bad of ['abc', 'W/abc', ' , ', '"a"'.repeat(2), Array.from({ length: 51 }, (_, i) => `"${i}"`).join(',')]) {
      const res = await app.request('PATCH', '/v1/tags/etag-b', { token: admin, body: { label: 'x' }, headers: { 'If-Match': bad } })
      expect(res.status, bad).toBe(400)
      expect(res.body.error.code).toBe('validation.failed')
      expect(res.body.error.details[0]).toMatchObject({ field: 'If-Match', constraint: 'format' })
    }
    expect((await storedTag(app, 'etag-b')).label).toBe('B')
  })

  it('lets exactly one of two concurrent updates read at the same version land', async () => {
    const { app, admin } = await setup()
    await app.request('POST', '/v1/tags', { token: admin, body: { slug: 'etag-c', label: 'C', facet: 'topic' } })
    for (let round = 0; round < 5; round++) {
      const v = (await app.request('GET', '/v1/tags/etag-c')).headers.get('etag')!
      const [a, b] = await Promise.all(
        ['A', 'B'].map((who) => app.request('PATCH', '/v1/tags/etag-c', { token: admin, body: { label: `${who}${round}` }, headers: { 'If-Match': v } })),
      )
      expect([a!.status, b!.status].sort()).toEqual([200, 412])
      const winner = a!.status === 200 ? `A${round}` : `B${round}`
      expect((await storedTag(app, 'etag-c')).label).toBe(winner)
    }
  })

  it('never gives two writes one version, even within a millisecond', async () => {
    // Payload stamps an update with the clock right after its beforeChange hooks: the guard
    // returns only once the clock has passed the stored instant, however close it is (a write a
    // moment ago in this millisecond, or a clock a few milliseconds ahead).
    for (const ahead of [0, 1, 3, 10]) {
      const stored = new Date(Date.now() + ahead).toISOString()
      const args = { data: { label: 'x' }, originalDoc: { updatedAt: stored }, operation: 'update', context: {} }
      await preconditionGuard(args as unknown as Parameters<typeof preconditionGuard>[0])
      expect(Date.now(), `stored ${ahead} ms ahead`).toBeGreaterThan(Date.parse(stored))
    }
  })

  it('a console save moves the version the API compares', async () => {
    const { app, admin } = await setup()
    await app.request('POST', '/v1/tags', { token: admin, body: { slug: 'etag-e', label: 'E', facet: 'topic' } })
    const v = (await app.request('GET', '/v1/tags/etag-e')).headers.get('etag')!
    await app.payload.update({ collection: 'tags', id: (await storedTag(app, 'etag-e')).id, data: { label: 'By the console' }, overrideAccess: true })
    const res = await app.request('PATCH', '/v1/tags/etag-e', { token: admin, body: { label: 'By the API' }, headers: { 'If-Match': v } })
    expect(res.status).toBe(412)
    expect((await storedTag(app, 'etag-e')).label).toBe('By the console')
  })

  it('users, roles and taxonomy nodes answer their version and refuse a stale update', async () => {
    const { app, admin } = await setup()
    const someone = await staffWith(app.payload, ['content.submit'])
    const user = await app.request('GET', `/v1/users/${someone.id}`, { token: admin })
    const uv = user.headers.get('etag')!
    expect(uv).toMatch(VERSION_TAG)
    expect((await app.request('PATCH', `/v1/users/${someone.id}`, { token: admin, body: { username: 'renamed_once' }, headers: { 'If-Match': uv } })).status).toBe(200)
    const staleUser = await app.request('PATCH', `/v1/users/${someone.id}`, { token: admin, body: { username: 'renamed_twice' }, headers: { 'If-Match': uv } })
    expect(staleUser.status).toBe(412)
    expect(staleUser.body.error.code).toBe('precondition.failed')
    expect((await app.payload.findByID({ collection: 'users', id: someone.id, overrideAccess: true })).username).toBe('renamed_once')

    const role = await app.request('POST', '/v1/roles', { token: admin, body: { name: 'etag-role', permissions: ['content.submit'] } })
    expect(role.status).toBe(201)
    const rid = role.body.data.id
    const rv = (await app.request('GET', `/v1/roles/${rid}`, { token: admin })).headers.get('etag')!
    expect((await app.request('PATCH', `/v1/roles/${rid}`, { token: admin, body: { description: 'one' }, headers: { 'If-Match': rv } })).status).toBe(200)
    const staleRole = await app.request('PATCH', `/v1/roles/${rid}`, { token: admin, body: { permissions: ['content.submit', 'tag.manage'] }, headers: { 'If-Match': rv } })
    expect(staleRole.status).toBe(412)
    expect((await app.payload.findByID({ collection: 'roles', id: rid, overrideAccess: true })).permissions).toEqual(['content.submit'])

    const surface = await app.request('POST', '/v1/catalog/surfaces', { token: admin, body: { slug: 'etag-s', label: 'S', routePrefix: '/etag-s', browseMode: 'grid', accentColor: '#2563eb' } })
    expect(surface.status).toBe(201)
    const first = await app.request('PATCH', '/v1/catalog/surfaces/etag-s', { token: admin, body: { label: 'S1' } })
    const sv = first.headers.get('etag')!
    expect(sv).toMatch(VERSION_TAG)
    expect((await app.request('PATCH', '/v1/catalog/surfaces/etag-s', { token: admin, body: { label: 'S2' }, headers: { 'If-Match': sv } })).status).toBe(200)
    const staleSurface = await app.request('PATCH', '/v1/catalog/surfaces/etag-s', { token: admin, body: { label: 'S3' }, headers: { 'If-Match': sv } })
    expect(staleSurface.status).toBe(412)
    const stored = (await app.payload.find({ collection: 'surfaces', where: { slug: { equals: 'etag-s' } }, overrideAccess: true })).docs[0]!
    expect(stored.label).toBe('S2')
  })

  it('lets a browser client send If-Match and read ETag across origins', async () => {
    const { app } = await setup()
    const origin = process.env.CORS_ALLOWED_ORIGINS?.split(',')[0]
    if (!origin) throw new Error('the test environment names an allowed origin (CORS_ALLOWED_ORIGINS)')
    const pre = await app.request('OPTIONS', '/v1/tags/etag-a', { headers: { Origin: origin, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'if-match' } })
    expect(pre.headers.get('access-control-allow-headers')).toContain('If-Match')
    const read = await app.request('GET', '/v1/tags/etag-a', { headers: { Origin: origin } })
    expect(read.headers.get('access-control-expose-headers')).toContain('ETag')
  })
})
