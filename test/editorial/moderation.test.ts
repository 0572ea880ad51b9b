// This file's environment: submissions without a group land in `data`.
process.env.CONTENT_DEFAULT_GROUP_SLUG = 'data'

import { describe, expect, it } from 'vitest'

import { on } from '../../src/platform/events/bus'
import { content, staffWith, taxonomy } from '../content/helpers'
import { testApp } from '../support/app'

let ready: Promise<{ app: Awaited<ReturnType<typeof testApp>>; userId: string; submitter: string; moderator: string; deleter: string }> | undefined

function setup() {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    // Callers holding exactly these permissions (a write is judged by its user's record).
    const member = await staffWith(app.payload, [])
    const userId = member.id
    return {
      app,
      userId,
      submitter: member.token,
      moderator: (await staffWith(app.payload, ['content.moderate', 'content.approve', 'tag.manage'])).token,
      deleter: (await staffWith(app.payload, ['content.delete'])).token,
    }
  })()
  return ready
}

const submit = async (body: Record<string, unknown>) => {
  const { app, submitter } = await setup()
  return app.request('POST', '/v1/content/submit', { token: submitter, body })
}

describe('POST /content/submit', () => {
  it('creates a pending item with a derived slug, hidden from anonymous callers', async () => {
    const { app, moderator, userId } = await setup()
    const res = await submit({
      title: 'Intro to SQL Joins!',
      url: 'https://example.com/joins',
      description: 'A walk through joins.',
      tagSlugs: ['sql', 'tutorial'],
      group: 'data',
      channel: 'web',
      platform: 'blog',
    })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      slug: 'intro-to-sql-joins',
      title: 'Intro to SQL Joins!',
      url: 'https://example.com/joins',
      description: 'A walk through joins.',
      tagSlugs: ['sql', 'tutorial'],
      group: 'data',
      channel: 'web',
      platform: 'blog',
      status: 'pending',
      isActive: true,
      submittedBy: userId,
      approvedAt: null,
      rejectionReason: null,
    })
    expect(res.body.data.id).toMatch(/^[0-9a-f]{24}$/)
    expect((await app.request('GET', '/v1/content/intro-to-sql-joins')).status).toBe(404)
    const anonList = await app.request('GET', '/v1/content?q=joins')
    expect(anonList.body.data).toEqual([])
    const queue = await app.request('GET', '/v1/content?status=pending', { token: moderator })
    expect(queue.body.data.map((d: any) => d.slug)).toContain('intro-to-sql-joins')
  })

  it('makes derived slugs unique with -2, -3 and applies the default group', async () => {
    const a = await submit({ title: 'Same Title', url: 'https://example.com/1' })
    const b = await submit({ title: 'Same Title', url: 'https://example.com/2' })
    const c = await submit({ title: 'Same   title', url: 'https://example.com/3' })
    expect([a.body.data.slug, b.body.data.slug, c.body.data.slug]).toEqual(['same-title', 'same-title-2', 'same-title-3'])
    expect(a.body.data.group).toBe('data')
  })

  it('refuses a taken explicit slug (409), a reserved one (409) and a malformed one (400)', async () => {
    await submit({ title: 'First', url: 'https://example.com/x', slug: 'my-pick' })
    const taken = await submit({ title: 'Second', url: 'https://example.com/y', slug: 'my-pick' })
    expect(taken.status).toBe(409)
    expect(taken.body.error).toMatchObject({ code: 'slug.conflict', details: { slug: 'my-pick', entity: 'content' } })
    const reserved = await submit({ title: 'x', url: 'https://example.com/z', slug: 'catalog' })
    expect(reserved.status).toBe(409)
    expect(reserved.body.error.code).toBe('slug.reserved')
    const bad = await submit({ title: 'x', url: 'https://example.com/z', slug: '-Bad-' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details).toEqual([{ field: 'slug', constraint: 'pattern', value: '-Bad-' }])
  })

  it('validates the body and every reference', async () => {
    const res = await submit({ title: '', url: 'ftp://example.com/file', description: 'x'.repeat(2001), extra: 1 })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation.failed')
    const fields = res.body.error.details.map((d: any) => `${d.field}:${d.constraint}`).sort()
    expect(fields).toEqual(['description:max', 'extra:unknown', 'title:min', 'url:url'])

    const refs = await submit({ title: 'Refs', url: 'https://example.com/r', tagSlugs: ['sql', 'nope'], group: 'ghost', channel: 'web', platform: 'fax' })
    expect(refs.status).toBe(400)
    expect(refs.body.error.details).toEqual([
      { field: 'group', constraint: 'exists', value: 'ghost' },
      { field: 'platform', constraint: 'exists', value: 'fax' },
      { field: 'tagSlugs.1', constraint: 'exists', value: 'nope' },
    ])
    const wrongChannel = await submit({ title: 'Refs', url: 'https://example.com/r', group: 'data', channel: 'systems' })
    expect(wrongChannel.body.error.details).toEqual([{ field: 'channel', constraint: 'exists', value: 'systems' }])
    const ambiguous = await submit({ title: 'Refs', url: 'https://example.com/r', group: 'programming' })
    expect(ambiguous.body.error.details).toEqual([{ field: 'group', constraint: 'ambiguous', value: 'programming' }])
    const missing = await submit({ title: 'No url' })
    expect(missing.body.error.details).toEqual([{ field: 'url', constraint: 'required' }])
  })

  it('needs authentication and is closed when branding says so', async () => {
    const { app } = await setup()
    const anon = await app.request('POST', '/v1/content/submit', { body: { title: 't', url: 'https://example.com' } })
    expect(anon.status).toBe(401)
    expect(anon.body.error.code).toBe('auth.missing_token')
    await app.payload.updateGlobal({ slug: 'branding', data: { submissionsOpen: false }, overrideAccess: true })
    try {
      const closed = await submit({ title: 'Closed', url: 'https://example.com/c' })
      expect(closed.status).toBe(403)
      expect(closed.body.error.code).toBe('content.submissions_closed')
      expect((await app.payload.count({ collection: 'content', where: { title: { equals: 'Closed' } }, overrideAccess: true })).totalDocs).toBe(0)
    } finally {
      await app.payload.updateGlobal({ slug: 'branding', data: { submissionsOpen: true }, overrideAccess: true })
    }
  })
})

describe('moderation state table', () => {
  it('approves pending content, which then appears in the public list', async () => {
    const { app, moderator } = await setup()
    await content(app.payload, { slug: 'to-approve', title: 'Approve me', status: 'pending', approvedAt: null })
    const res = await app.request('POST', '/v1/content/to-approve/approve', { token: moderator })
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('approved')
    expect(Date.parse(res.body.data.approvedAt)).toBeGreaterThan(Date.now() - 60_000)
    expect((await app.request('GET', '/v1/content/to-approve')).status).toBe(200)
    const list = await app.request('GET', '/v1/content?q=approve')
    expect(list.body.data.map((d: any) => d.slug)).toContain('to-approve')
  })

  it('rejects pending content with a reason; it stays hidden but retained', async () => {
    const { app, moderator } = await setup()
    await content(app.payload, { slug: 'to-reject', status: 'pending', approvedAt: null })
    const res = await app.request('POST', '/v1/content/to-reject/reject', { token: moderator, body: { reason: 'Off topic' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'rejected', rejectionReason: 'Off topic', approvedAt: null })
    expect((await app.request('GET', '/v1/content/to-reject')).status).toBe(404)
    const all = await app.request('GET', '/v1/content?status=rejected', { token: moderator })
    expect(all.body.data.map((d: any) => d.slug)).toContain('to-reject')
    const noReason = await app.request('POST', '/v1/content/x/reject', { token: moderator, body: { reason: 'x'.repeat(501) } })
    expect(noReason.status).toBe(400)
  })

  it('answers 422 content.state_invalid for every move out of approved or rejected, changing nothing', async () => {
    const { app, moderator } = await setup()
    await content(app.payload, { slug: 'already-approved', status: 'approved' })
    await content(app.payload, { slug: 'already-rejected', status: 'rejected', approvedAt: null, rejectionReason: 'no' })
    for (const [slug, action, status] of [
      ['already-approved', 'approve', 'approved'],
      ['already-approved', 'reject', 'approved'],
      ['already-rejected', 'approve', 'rejected'],
      ['already-rejected', 'reject', 'rejected'],
    ] as const) {
      const res = await app.request('POST', `/v1/content/${slug}/${action}`, { token: moderator, body: {} })
      expect(res.status).toBe(422)
      expect(res.body.error).toMatchObject({ code: 'content.state_invalid', details: { status } })
    }
    const rejected = (await app.payload.find({ collection: 'content', where: { slug: { equals: 'already-rejected' } }, overrideAccess: true })).docs[0]
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'no', approvedAt: null })
  })

  it('needs content.approve, and 404s an unknown slug', async () => {
    const { app, submitter, moderator } = await setup()
    await content(app.payload, { slug: 'guarded', status: 'pending', approvedAt: null })
    const member = await app.request('POST', '/v1/content/guarded/approve', { token: submitter })
    expect(member.status).toBe(403)
    expect(member.body.error.code).toBe('auth.forbidden')
    const anon = await app.request('POST', '/v1/content/guarded/approve')
    expect(anon.status).toBe(401)
    const ghost = await app.request('POST', '/v1/content/ghost/approve', { token: moderator })
    expect(ghost.status).toBe(404)
    expect(ghost.body.error.code).toBe('content.not_found')
  })

  it('lets exactly one of a concurrent approve and reject win', async () => {
    const { app, moderator } = await setup()
    for (let i = 0; i < 5; i++) {
      await content(app.payload, { slug: `race-${i}`, status: 'pending', approvedAt: null })
      const [a, r] = await Promise.all([
        app.request('POST', `/v1/content/race-${i}/approve`, { token: moderator }),
        app.request('POST', `/v1/content/race-${i}/reject`, { token: moderator, body: { reason: 'race' } }),
      ])
      // The loser read the item pending and lost the race (409 content.conflict), or read it decided (422).
      const loser = a.status === 200 ? r : a
      expect([a.status, r.status]).toContain(200)
      expect([409, 422]).toContain(loser.status)
      expect(loser.body.error.code).toBe(loser.status === 409 ? 'content.conflict' : 'content.state_invalid')
      const doc = (await app.payload.find({ collection: 'content', where: { slug: { equals: `race-${i}` } }, overrideAccess: true })).docs[0]!
      expect(doc.status).toBe(a.status === 200 ? 'approved' : 'rejected')
      expect(doc.approvedAt == null).toBe(a.status !== 200)
    }
  })

  it('never lets follow-up work delay or fail an approval', async () => {
    const { app, moderator } = await setup()
    // A listener that settles only when the test lets it: the answer must come while it still hangs.
    let hanging = true
    let letGo!: () => void
    const released = new Promise<void>((resolve) => (letGo = resolve))
    on('content.approved', () => released.then(() => void (hanging = false)))
    on('content.approved', () => {
      throw new Error('follow-up exploded')
    })
    await content(app.payload, { slug: 'fast-approve', status: 'pending', approvedAt: null })
    const res = await app.request('POST', '/v1/content/fast-approve/approve', { token: moderator })
    expect(res.status).toBe(200)
    expect(hanging, 'the approval was answered while a follow-up still hung').toBe(true)
    letGo()
    await new Promise((r) => setTimeout(r, 20))
    expect(app.logs.some((l) => l.msg === 'event.listener_failed' && l.err?.message === 'follow-up exploded')).toBe(true)
  })
})

describe('DELETE /content/<slug>', () => {
  it('soft-deletes with content.delete: hidden from others, kept in the database', async () => {
    const { app, moderator, deleter } = await setup()
    const item = await content(app.payload, { slug: 'to-delete' })
    const forbidden = await app.request('DELETE', '/v1/content/to-delete', { token: moderator })
    expect(forbidden.status).toBe(403)
    const res = await app.request('DELETE', '/v1/content/to-delete', { token: deleter })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ deleted: true, id: item.id })
    expect((await app.request('GET', '/v1/content/to-delete')).status).toBe(404)
    expect((await app.request('GET', '/v1/content/to-delete', { token: moderator })).status).toBe(404)
    const seen = await app.request('GET', '/v1/content/to-delete', { token: deleter })
    expect(seen.status).toBe(200)
    expect(seen.body.data.isActive).toBe(false)
    const again = await app.request('DELETE', '/v1/content/to-delete', { token: deleter })
    expect(again.body.data).toEqual({ deleted: true, id: item.id })
    const ghost = await app.request('DELETE', '/v1/content/ghost', { token: deleter })
    expect(ghost.status).toBe(404)
    expect((await app.payload.count({ collection: 'content', where: { slug: { equals: 'to-delete' } }, overrideAccess: true })).totalDocs).toBe(1)
  })
})
