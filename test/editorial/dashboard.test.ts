/** The console dashboard's numbers (src/services/dashboard.ts), each tile by permission. */
import { describe, expect, it } from 'vitest'

import { engine } from '../../src/db/engine'
import { dashboardData } from '../../src/services/dashboard'
import { moderationQueue } from '../../src/services/moderationQueue'
import { content, taxonomy, tokenFor } from '../content/helpers'
import { testApp } from '../support/app'

describe('dashboardData', () => {
  it('counts pending, decisions per day, top tags and recent activity, each only for its permission', async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    const admin = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
    const moderator = await tokenFor(['content.moderate', 'content.approve'], String(admin.id))
    const empty = await dashboardData(app.payload, ['content.moderate'])
    expect(empty.pending).toEqual({ count: 0, oldestAt: null, oldestSlug: null })
    expect(empty.daily).toHaveLength(30)
    expect(empty.daily!.every((d) => d.approved === 0 && d.rejected === 0)).toBe(true)

    await content(app.payload, { slug: 'old-one', status: 'pending', approvedAt: null, tagSlugs: ['sql'], createdAt: '2024-01-01T00:00:00.000Z' })
    for (const slug of ['p1', 'p2', 'p3', 'p4']) await content(app.payload, { slug, status: 'pending', approvedAt: null, tagSlugs: ['sql', 'talk'], submittedBy: admin.id })
    await content(app.payload, { slug: 'hidden-pending', status: 'pending', approvedAt: null, isActive: false })
    await content(app.payload, { slug: 'a1', tagSlugs: ['sql'] })
    for (const slug of ['p1', 'p2']) expect((await app.request('POST', `/v1/content/${slug}/approve`, { token: moderator })).status).toBe(200)
    expect((await app.request('POST', '/v1/content/p3/reject', { token: moderator, body: { reason: 'Spam' } })).status).toBe(200)

    const data = await dashboardData(app.payload, ['content.moderate'])
    // old-one and p4 wait; the inactive item does not count.
    expect(data.pending).toEqual({ count: 2, oldestAt: '2024-01-01T00:00:00.000Z', oldestSlug: 'old-one' })
    const today = new Date().toISOString().slice(0, 10)
    expect(data.daily!.at(-1)).toEqual({ day: today, approved: 2, rejected: 1 })
    expect(data.daily!.slice(0, -1).every((d) => d.approved === 0 && d.rejected === 0)).toBe(true)
    // Approved, active usage: sql on a1, p1, p2; talk on p1, p2.
    expect(data.topTags).toEqual([
      { slug: 'sql', label: 'SQL', usageCount: 3 },
      { slug: 'talk', label: 'Talk', usageCount: 2 },
    ])
    expect(data.recent!.map((e) => [e.action, e.target.slug])).toEqual([
      ['reject', 'p3'],
      ['approve', 'p2'],
      ['approve', 'p1'],
    ])

    // Tiles by permission: tag.manage sees top tags only; no console permission sees nothing.
    const tagEditor = await dashboardData(app.payload, ['tag.manage'])
    expect(Object.keys(tagEditor)).toEqual(['topTags', 'taxonomy'])
    // Those who shape the taxonomy see its size; the tree's links only for those who may edit it.
    expect(tagEditor.taxonomy).toMatchObject({ tags: expect.any(Number), editsTree: false, managesTags: true })
    expect((await dashboardData(app.payload, ['catalog.manage'])).taxonomy).toMatchObject({ editsTree: true, managesTags: false })
    expect(await dashboardData(app.payload, ['user.manage'])).toEqual({})

    // The queue: oldest first by default, newest first on request, the submitter's record.
    const actor = { id: String(admin.id), permissions: ['content.moderate', 'content.delete'] }
    const base = { sort: 'oldest' as const, offset: 0, limit: 25 }
    const oldest = await moderationQueue(app.payload, base, actor)
    expect(oldest.items.map((i) => i.slug)).toEqual(['old-one', 'p4'])
    expect(oldest.total).toBe(2)
    expect(oldest.items[1]!.submitter).toEqual({ id: String(admin.id), email: 'admin@example.com', username: expect.any(String), approved: 2, rejected: 1 })
    expect(oldest.items[0]!.submitter).toBeNull()
    const bySubmitter = await moderationQueue(app.payload, { ...base, submitter: 'admin@example.com' }, actor)
    expect(bySubmitter.items.map((i) => i.slug)).toEqual(['p4'])
    const newest = await moderationQueue(app.payload, { ...base, sort: 'newest' }, actor)
    expect(newest.items.map((i) => i.slug)).toEqual(['p4', 'old-one'])
    expect((await moderationQueue(app.payload, { ...base, tag: 'talk' }, actor)).items.map((i) => i.slug)).toEqual(['p4'])
    expect((await moderationQueue(app.payload, { ...base, age: '7d' }, actor)).items.map((i) => i.slug)).toEqual(['old-one'])
    expect((await moderationQueue(app.payload, { ...base, submitter: 'nobody@example.com' }, actor)).total).toBe(0)
  })

  it('the queue warns of other items holding the same URL (copies stored before duplicate detection)', async () => {
    const app = await testApp()
    const approved = await content(app.payload, { slug: 'dup-approved' })
    const pending = await content(app.payload, { slug: 'dup-pending', status: 'pending', approvedAt: null })
    const lone = await content(app.payload, { slug: 'lone-pending', status: 'pending', approvedAt: null })
    // As a database from before the rule: two rows with one URL, keys filled by the start-up backfill.
    for (const [id, url] of [[approved.id, 'https://legacy.example.org/post/'], [pending.id, 'https://LEGACY.example.org/post?utm_source=x']] as const) {
      await app.payload.db.updateOne({ collection: 'content', id, data: { url, urlKey: null, urlKeyOrdinal: null } })
    }
    await engine().contentStore(app.payload).prepare()
    const actor = { id: 'x'.repeat(24).replace(/x/g, 'a'), permissions: ['content.moderate'] }
    const page = await moderationQueue(app.payload, { sort: 'oldest', offset: 0, limit: 25 }, actor)
    const bySlug = new Map(page.items.map((i) => [i.slug, i.sameUrl]))
    expect(bySlug.get('dup-pending')).toEqual([{ slug: 'dup-approved', status: 'approved' }])
    expect(bySlug.get(String(lone.slug))).toEqual([])
  })
})
