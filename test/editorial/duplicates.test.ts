/**
 * Duplicate URLs: one normalised key per URL (src/platform/urlNormalize.ts), stored in `urlKey`;
 * a second submission of the same key is 409 content.duplicate (details only when the
 * caller may see the first item); GET /content?url= finds the caller-visible item(s);
 * rows from before the rule are backfilled at start-up (legacy duplicates kept, numbered).
 */
process.env.CONTENT_DEFAULT_GROUP_SLUG = 'data'

import { describe, expect, it } from 'vitest'

import { engine } from '../../src/db/engine'
import { normalizeUrl } from '../../src/platform/urlNormalize'
import { content, staffWith, taxonomy, tokenFor, twoMembersAndStaff } from '../content/helpers'
import { type TestApp, testApp } from '../support/app'

describe('normalizeUrl', () => {
  it.each([
    ['HTTPS://Example.COM/Path', 'https://example.com/Path'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['http://example.com:8080/a', 'http://example.com:8080/a'],
    ['https://example.com/a/', 'https://example.com/a'],
    ['https://example.com/a//', 'https://example.com/a'],
    ['https://example.com/', 'https://example.com/'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a?utm_source=x&utm_medium=y', 'https://example.com/a'],
    ['https://example.com/a?b=2&utm_campaign=z&a=1&fbclid=F&gclid=G', 'https://example.com/a?b=2&a=1'],
    ['https://example.com/a?UTM_Source=x&v=1', 'https://example.com/a?v=1'],
    ['https://example.com/a?q=hello%20world&x', 'https://example.com/a?q=hello%20world&x'],
    ['https://example.com/a?&&v=1&', 'https://example.com/a?v=1'],
    ['https://example.com/watch?v=abc#t=10', 'https://example.com/watch?v=abc'],
    ['https://example.com/a/?v=1', 'https://example.com/a?v=1'],
    ['https://example.com/A/B', 'https://example.com/A/B'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected)
  })

  it('is idempotent and answers null for what is not an absolute http(s) URL', () => {
    const once = normalizeUrl('HTTP://Ex.com:80/a/?utm_x=1&k=v#f')!
    expect(normalizeUrl(once)).toBe(once)
    expect(normalizeUrl('ftp://example.com/a')).toBeNull()
    expect(normalizeUrl('not a url')).toBeNull()
  })
})

type Setup = {
  app: TestApp
  alice: { id: string; token: string }
  bob: { id: string; token: string }
  moderator: string
  deleter: string
  adminId: string
}

let ready: Promise<Setup> | undefined

function setup(): Promise<Setup> {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    return { app, ...(await twoMembersAndStaff(app)) }
  })()
  return ready
}

const submit = (app: TestApp, token: string, body: Record<string, unknown>) =>
  app.request('POST', '/v1/content/submit', { token, body })

const rowsWithKey = async (app: TestApp, urlKey: string) =>
  (await app.payload.find({ collection: 'content', where: { urlKey: { equals: urlKey } }, overrideAccess: true, sort: 'createdAt' })).docs as any[]

describe('POST /content/submit with a URL already present', () => {
  it('stores the normalised key; the same URL in another spelling is 409 content.duplicate, nothing inserted', async () => {
    const { app, alice, bob } = await setup()
    const first = await submit(app, alice.token, { title: 'Dup one', url: 'https://Example.com/dup-one/?utm_source=news#top' })
    expect(first.status).toBe(201)
    // The link is kept as given; the key is what compares.
    expect(first.body.data.url).toBe('https://Example.com/dup-one/?utm_source=news#top')
    const stored = await rowsWithKey(app, 'https://example.com/dup-one')
    expect(stored.map((r) => r.slug)).toEqual(['dup-one'])

    // Bob may not see Alice's pending item: 409 without details.
    const again = await submit(app, bob.token, { title: 'Dup one again', url: 'https://example.com:443/dup-one' })
    expect(again.status).toBe(409)
    expect(again.body.success).toBe(false)
    expect(again.body.error.code).toBe('content.duplicate')
    expect(again.body.error.details).toBeUndefined()
    expect((await rowsWithKey(app, 'https://example.com/dup-one')).length).toBe(1)
    expect((await app.payload.count({ collection: 'content', where: { title: { equals: 'Dup one again' } }, overrideAccess: true })).totalDocs).toBe(0)
  })

  it('details { slug, status } for the item\'s own submitter and for moderators (pending)', async () => {
    const { app, alice, moderator } = await setup()
    expect((await submit(app, alice.token, { title: 'Mine pending', url: 'https://example.com/mine-pending' })).status).toBe(201)
    const own = await submit(app, alice.token, { title: 'Mine pending 2', url: 'https://example.com/mine-pending/' })
    expect(own.status).toBe(409)
    expect(own.body.error).toMatchObject({ code: 'content.duplicate', details: { slug: 'mine-pending', status: 'pending' } })
    const mod = await submit(app, moderator, { title: 'Mine pending 3', url: 'https://example.com/mine-pending#x' })
    expect(mod.status).toBe(409)
    expect(mod.body.error.details).toEqual({ slug: 'mine-pending', status: 'pending' })
  })

  it('an approved, active item is visible to all: details for anyone; a rejected one only for its submitter', async () => {
    const { app, alice, bob, moderator } = await setup()
    await submit(app, alice.token, { title: 'Will approve', url: 'https://example.com/will-approve' })
    expect((await app.request('POST', '/v1/content/will-approve/approve', { token: moderator })).status).toBe(200)
    const seen = await submit(app, bob.token, { title: 'x', url: 'https://example.com/will-approve?fbclid=abc' })
    expect(seen.status).toBe(409)
    expect(seen.body.error.details).toEqual({ slug: 'will-approve', status: 'approved' })

    await submit(app, alice.token, { title: 'Will reject', url: 'https://example.com/will-reject' })
    expect((await app.request('POST', '/v1/content/will-reject/reject', { token: moderator, body: { reason: 'Off topic' } })).status).toBe(200)
    const hidden = await submit(app, bob.token, { title: 'x', url: 'https://example.com/will-reject' })
    expect(hidden.status).toBe(409)
    expect(hidden.body.error.details).toBeUndefined()
    const own = await submit(app, alice.token, { title: 'x', url: 'https://example.com/will-reject' })
    expect(own.body.error.details).toEqual({ slug: 'will-reject', status: 'rejected' })
  })

  it('a soft-deleted item still blocks its URL; details only for content.delete holders', async () => {
    const { app, alice, deleter, moderator } = await setup()
    await submit(app, alice.token, { title: 'Will delete', url: 'https://example.com/will-delete' })
    expect((await app.request('DELETE', '/v1/content/will-delete', { token: deleter })).status).toBe(200)
    const own = await submit(app, alice.token, { title: 'x', url: 'https://example.com/will-delete' })
    expect(own.status).toBe(409)
    expect(own.body.error.details).toBeUndefined()
    const mod = await submit(app, moderator, { title: 'x', url: 'https://example.com/will-delete' })
    expect(mod.body.error.details).toBeUndefined()
    // content.delete alone does not show a pending item (as GET /content/:slug); with content.moderate it does.
    const del = await submit(app, deleter, { title: 'x', url: 'https://example.com/will-delete' })
    expect(del.status).toBe(409)
    expect(del.body.error.details).toBeUndefined()
    const both = (await staffWith(app.payload, ['content.delete', 'content.moderate'])).token
    const seen = await submit(app, both, { title: 'x', url: 'https://example.com/will-delete' })
    expect(seen.status).toBe(409)
    expect(seen.body.error.details).toEqual({ slug: 'will-delete', status: 'pending' })
  })

  it('two concurrent identical submissions: one 201, one 409; one row', async () => {
    const { app, alice, bob } = await setup()
    const results = await Promise.all([
      submit(app, alice.token, { title: 'Race A', url: 'https://example.com/race' }),
      submit(app, bob.token, { title: 'Race B', url: 'https://example.com/race/' }),
      submit(app, alice.token, { title: 'Race C', url: 'HTTPS://EXAMPLE.COM/race' }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409])
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('content.duplicate')
    expect((await rowsWithKey(app, 'https://example.com/race')).length).toBe(1)
  })

  it('past every check (a trusted local write), the unique index still refuses a second new row with the key', async () => {
    const { app, alice, adminId } = await setup()
    await submit(app, alice.token, { title: 'Index guard', url: 'https://example.com/index-guard' })
    await expect(
      app.payload.create({
        collection: 'content',
        data: { slug: 'index-guard-copy', title: 'Copy', url: 'https://example.com/index-guard/#x', status: 'pending', submittedBy: adminId } as never,
        overrideAccess: true,
      }),
    ).rejects.toThrow()
    expect((await rowsWithKey(app, 'https://example.com/index-guard')).map((r) => [r.slug, r.urlKeyOrdinal])).toEqual([['index-guard', 0]])
  })

  it('the console\'s REST create follows the same rule (a field error on url naming content.duplicate)', async () => {
    const { app, alice } = await setup()
    await submit(app, alice.token, { title: 'Console dup', url: 'https://example.com/console-dup' })
    const adminLogin = await app.request('POST', '/users/login', { body: { email: 'admin@example.com', password: 'admin-password-123' } })
    const cookie = /payload-token=([^;]+)/.exec(adminLogin.headers.get('set-cookie') ?? '')![1]
    const res = await app.request('POST', '/content', {
      headers: { cookie: `payload-token=${cookie}` },
      body: { title: 'Console copy', url: 'https://example.com/console-dup/' },
    })
    expect(res.status).toBe(400)
    expect(res.body.errors[0].data.errors).toEqual([expect.objectContaining({ path: 'url', message: expect.stringContaining('content.duplicate') })])
    expect((await rowsWithKey(app, 'https://example.com/console-dup')).length).toBe(1)
  })
})

describe('GET /content?url=', () => {
  it('finds the approved item by any spelling of its URL; combines with other filters (AND)', async () => {
    const { app, alice, moderator } = await setup()
    await submit(app, alice.token, { title: 'Lookup me', url: 'https://example.com/lookup', group: 'data' })
    await app.request('POST', '/v1/content/lookup-me/approve', { token: moderator })
    const res = await app.request('GET', `/v1/content?url=${encodeURIComponent('HTTPS://example.com/lookup/?utm_medium=x#frag')}`)
    expect(res.status).toBe(200)
    expect(res.body.data.map((d: any) => d.slug)).toEqual(['lookup-me'])
    expect(res.body.pagination).toEqual({ offset: 0, limit: 30, total: 1, hasMore: false })
    const otherGroup = await app.request('GET', `/v1/content?url=${encodeURIComponent('https://example.com/lookup')}&group=programming`)
    expect(otherGroup.body.data).toEqual([])
    const none = await app.request('GET', `/v1/content?url=${encodeURIComponent('https://example.com/never')}`)
    expect(none.status).toBe(200)
    expect(none.body.data).toEqual([])
  })

  it('a pending item is invisible to the public and visible to moderators with status=pending', async () => {
    const { app, alice, moderator } = await setup()
    await submit(app, alice.token, { title: 'Lookup pending', url: 'https://example.com/lookup-pending' })
    const url = encodeURIComponent('https://example.com/lookup-pending')
    expect((await app.request('GET', `/v1/content?url=${url}`)).body.data).toEqual([])
    const mod = await app.request('GET', `/v1/content?url=${url}&status=pending`, { token: moderator })
    expect(mod.body.data.map((d: any) => d.slug)).toEqual(['lookup-pending'])
  })

  it('a url that is not an absolute http(s) URL is 400 validation.failed', async () => {
    const { app } = await setup()
    const res = await app.request('GET', `/v1/content?url=${encodeURIComponent('javascript:alert(1)')}`)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation.failed')
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'url', constraint: 'url' })])
  })
})

describe('backfill at start-up', () => {
  it('fills urlKey of rows that lack it, in order; legacy duplicates are kept and numbered; idempotent', async () => {
    const { app, adminId } = await setup()
    const a = await content(app.payload, { submittedBy: adminId })
    const b = await content(app.payload, { submittedBy: adminId })
    const c = await content(app.payload, { submittedBy: adminId })
    // As a database from before this build: duplicate URLs and no keys at all (written below the hooks).
    const legacyUrls: [string, string][] = [
      [a.id, 'https://example.com/legacy/?utm_source=x'],
      [b.id, 'https://EXAMPLE.com/legacy'],
      [c.id, 'https://example.com/legacy-other'],
    ]
    for (const [id, url] of legacyUrls) {
      await app.payload.db.updateOne({ collection: 'content', id, data: { url, urlKey: null, urlKeyOrdinal: null } })
    }
    expect((await rowsWithKey(app, 'https://example.com/legacy')).length).toBe(0)
    await engine().contentStore(app.payload).prepare()
    const legacy = await rowsWithKey(app, 'https://example.com/legacy')
    expect(legacy.map((r) => [r.id, r.urlKeyOrdinal])).toEqual([
      [a.id, 0],
      [b.id, 1],
    ])
    expect((await rowsWithKey(app, 'https://example.com/legacy-other')).map((r) => r.urlKeyOrdinal)).toEqual([0])
    await engine().contentStore(app.payload).prepare()
    expect((await rowsWithKey(app, 'https://example.com/legacy')).map((r) => r.urlKeyOrdinal)).toEqual([0, 1])
    // Both legacy copies are found; a new submission of the URL is refused.
    const found = await app.request('GET', `/v1/content?url=${encodeURIComponent('https://example.com/legacy')}&sort=oldest`)
    expect(found.body.data.map((d: any) => d.id)).toEqual([a.id, b.id])
    const { alice } = await setup()
    const again = await submit(app, alice.token, { title: 'Legacy again', url: 'https://example.com/legacy' })
    expect(again.status).toBe(409)
    expect(again.body.error.details).toEqual({ slug: a.slug, status: 'approved' })
  })
})
