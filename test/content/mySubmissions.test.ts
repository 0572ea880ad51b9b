/**
 * GET /api/v1/auth/me/submissions: the caller's own items in every status, newest first
 * (createdAt desc, id desc), with rejectionReason, paginated like /content. Soft-deleted
 * items are listed only to callers holding content.delete (as everywhere else).
 */
process.env.CONTENT_DEFAULT_GROUP_SLUG = 'data'

import { describe, expect, it } from 'vitest'

import { taxonomy, tokenFor, twoMembersAndStaff } from './helpers'
import { type TestApp, testApp } from '../support/app'

type Setup = { app: TestApp; alice: { id: string; token: string }; bob: { id: string; token: string }; moderator: string; deleter: string }

let ready: Promise<Setup> | undefined

function setup(): Promise<Setup> {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    const { alice, bob, moderator, deleter } = await twoMembersAndStaff(app)
    const submit = async (token: string, title: string) => {
      const res = await app.request('POST', '/v1/content/submit', { token, body: { title, url: `https://example.com/mine/${title.replace(/\W/g, '-')}` } })
      expect(res.status, res.text).toBe(201)
      // Distinct creation instants, so "newest first" is observable.
      await new Promise((r) => setTimeout(r, 5))
    }
    await submit(alice.token, 'Alice one')
    await submit(bob.token, 'Bob one')
    await submit(alice.token, 'Alice two')
    await submit(alice.token, 'Alice three')
    await submit(alice.token, 'Alice four')
    expect((await app.request('POST', '/v1/content/alice-two/approve', { token: moderator })).status).toBe(200)
    expect((await app.request('POST', '/v1/content/alice-three/reject', { token: moderator, body: { reason: 'Duplicate of another talk' } })).status).toBe(200)
    expect((await app.request('DELETE', '/v1/content/alice-four', { token: deleter })).status).toBe(200)
    return { app, alice, bob, moderator, deleter }
  })()
  return ready
}

const mine = (app: TestApp, token: string | undefined, query = '') =>
  app.request('GET', `/v1/auth/me/submissions${query}`, token ? { token } : {})

describe('GET /auth/me/submissions', () => {
  it('needs authentication: 401 auth.missing_token', async () => {
    const { app } = await setup()
    const res = await mine(app, undefined)
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('auth.missing_token')
  })

  it('lists only the caller\'s items, every status, newest first, with rejectionReason; not the soft-deleted one', async () => {
    const { app, alice } = await setup()
    const res = await mine(app, alice.token)
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body.data.map((d: any) => [d.slug, d.status, d.rejectionReason])).toEqual([
      ['alice-three', 'rejected', 'Duplicate of another talk'],
      ['alice-two', 'approved', null],
      ['alice-one', 'pending', null],
    ])
    for (const d of res.body.data) expect(d.submittedBy).toBe(alice.id)
    const created = res.body.data.map((d: any) => d.createdAt)
    expect([...created].sort().reverse()).toEqual(created)
    expect(res.body.pagination).toEqual({ offset: 0, limit: 30, total: 3, hasMore: false })
    // The same item shape as /content.
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      ['approvedAt', 'channel', 'createdAt', 'description', 'group', 'id', 'isActive', 'platform', 'rejectionReason', 'slug', 'status', 'submittedBy', 'tagSlugs', 'thumbnailUrl', 'title', 'updatedAt', 'url'],
    )
  })

  it('another user sees only their own', async () => {
    const { app, bob } = await setup()
    const res = await mine(app, bob.token)
    expect(res.body.data.map((d: any) => d.slug)).toEqual(['bob-one'])
    expect(res.body.pagination.total).toBe(1)
  })

  it('a caller holding content.delete also sees their own soft-deleted items', async () => {
    const { app, alice } = await setup()
    const res = await mine(app, await tokenFor(['content.delete'], alice.id))
    expect(res.body.data.map((d: any) => [d.slug, d.isActive])).toEqual([
      ['alice-four', false],
      ['alice-three', true],
      ['alice-two', true],
      ['alice-one', true],
    ])
  })

  it('paginates like /content: offset/limit, hasMore, limit=0 counts only', async () => {
    const { app, alice } = await setup()
    const page = await mine(app, alice.token, '?offset=1&limit=1')
    expect(page.body.data.map((d: any) => d.slug)).toEqual(['alice-two'])
    expect(page.body.pagination).toEqual({ offset: 1, limit: 1, total: 3, hasMore: true })
    const last = await mine(app, alice.token, '?offset=2&limit=1')
    expect(last.body.pagination).toEqual({ offset: 2, limit: 1, total: 3, hasMore: false })
    const count = await mine(app, alice.token, '?limit=0')
    expect(count.body.data).toEqual([])
    expect(count.body.pagination).toEqual({ offset: 0, limit: 0, total: 3, hasMore: true })
  })

  it('bad pagination is 400 pagination.invalid, as on /content', async () => {
    const { app, alice } = await setup()
    for (const q of ['?limit=201', '?limit=abc', '?offset=-1', '?offset=10001']) {
      const res = await mine(app, alice.token, q)
      expect(res.status, q).toBe(400)
      expect(res.body.error.code).toBe('pagination.invalid')
    }
  })

  it('a user with no submissions gets an empty list', async () => {
    const { app, moderator } = await setup()
    // The moderator (the admin's id) approved and rejected, but submitted nothing.
    const res = await mine(app, moderator)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.pagination).toEqual({ offset: 0, limit: 30, total: 0, hasMore: false })
  })
})
