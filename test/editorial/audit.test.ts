/**
 * The moderation audit trail (issue 13, item 3): every approve, reject, soft delete, restore,
 * tag and taxonomy rename writes one event in the same transaction as the change; the events
 * are read by content.moderate holders and never written, edited or deleted through REST.
 */
import { describe, expect, it } from 'vitest'

import { engine } from '../../src/db/engine'
import { recordedUpdate } from '../../src/db/workflow'
import { approveContent, rejectContent } from '../../src/services/contentWrites'
import { ADMIN, freshIp } from '../auth/helpers'
import { content, staffWith, taxonomy, tokenFor } from '../content/helpers'
import { type TestApp, testApp } from '../support/app'

type Setup = { app: TestApp; adminId: string; moderator: string; deleter: string; editor: string; catalog: string; member: string }
let ready: Promise<Setup> | undefined

function setup(): Promise<Setup> {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    const admin = (await app.payload.find({ collection: 'users', where: { email: { equals: ADMIN.email } }, limit: 1, overrideAccess: true })).docs[0]!
    const adminId = String(admin.id)
    return {
      app,
      adminId,
      moderator: await tokenFor(['content.moderate', 'content.approve'], adminId),
      deleter: await tokenFor(['content.delete'], adminId),
      editor: await tokenFor(['tag.manage'], adminId),
      catalog: await tokenFor(['catalog.manage'], adminId),
      // A write is judged by its caller's record: the refusals need callers who lack the permission.
      member: (await staffWith(app.payload, [])).token,
    }
  })()
  return ready
}

async function eventsOf(app: TestApp, targetId: string) {
  const res = await app.payload.find({ collection: 'moderation-events', where: { targetId: { equals: targetId } }, sort: 'at', depth: 0, overrideAccess: true })
  return res.docs
}

const countEvents = async (app: TestApp) => (await app.payload.count({ collection: 'moderation-events', overrideAccess: true })).totalDocs

describe('the moderation audit trail', () => {
  it('records an approval: actor, action, target, status before and after, time', async () => {
    const { app, adminId, moderator } = await setup()
    const item = await content(app.payload, { slug: 'audit-approve', status: 'pending', approvedAt: null })
    const before = Date.now()
    const res = await app.request('POST', '/v1/content/audit-approve/approve', { token: moderator })
    expect(res.status).toBe(200)
    const events = await eventsOf(app, item.id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      action: 'approve',
      actor: adminId,
      targetCollection: 'content',
      targetId: item.id,
      targetSlug: 'audit-approve',
      stateBefore: 'pending',
      stateAfter: 'approved',
    })
    expect(events[0]!.reason ?? null).toBeNull()
    expect(Date.parse(String(events[0]!.at))).toBeGreaterThanOrEqual(before - 1000)
  })

  it('records a rejection with its reason, and nothing for a refused move', async () => {
    const { app, moderator } = await setup()
    const item = await content(app.payload, { slug: 'audit-reject', status: 'pending', approvedAt: null })
    const res = await app.request('POST', '/v1/content/audit-reject/reject', { token: moderator, body: { reason: 'Off topic' } })
    expect(res.status).toBe(200)
    const again = await app.request('POST', '/v1/content/audit-reject/approve', { token: moderator })
    expect(again.status).toBe(422)
    const events = await eventsOf(app, item.id)
    expect(events.map((e) => [e.action, e.stateBefore, e.stateAfter, e.reason])).toEqual([['reject', 'pending', 'rejected', 'Off topic']])
  })

  it('records a soft delete and a restore (POST /content/<slug>/restore), once each', async () => {
    const { app, deleter, moderator } = await setup()
    const item = await content(app.payload, { slug: 'audit-delete' })
    expect((await app.request('DELETE', '/v1/content/audit-delete', { token: deleter })).status).toBe(200)
    expect((await app.request('DELETE', '/v1/content/audit-delete', { token: deleter })).status).toBe(200)
    expect((await app.request('GET', '/v1/content/audit-delete')).status).toBe(404)
    // Restoring needs content.delete, like deleting (a caller with only moderation's permissions).
    void moderator
    const forbidden = await app.request('POST', '/v1/content/audit-delete/restore', { token: (await staffWith(app.payload, ['content.moderate', 'content.approve'])).token })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.error.code).toBe('auth.forbidden')
    const restored = await app.request('POST', '/v1/content/audit-delete/restore', { token: deleter })
    expect(restored.status).toBe(200)
    expect(restored.body.data).toMatchObject({ slug: 'audit-delete', isActive: true, status: 'approved' })
    expect((await app.request('POST', '/v1/content/audit-delete/restore', { token: deleter })).status).toBe(200)
    expect((await app.request('GET', '/v1/content/audit-delete')).status).toBe(200)
    const events = await eventsOf(app, item.id)
    expect(events.map((e) => [e.action, e.stateBefore, e.stateAfter])).toEqual([
      ['delete', 'active', 'deleted'],
      ['restore', 'deleted', 'active'],
    ])
    const ghost = await app.request('POST', '/v1/content/no-such-item/restore', { token: deleter })
    expect(ghost.status).toBe(404)
    expect(ghost.body.error.code).toBe('content.not_found')
  })

  it('records tag and taxonomy renames with the old and new slug', async () => {
    const { app, editor, catalog, adminId } = await setup()
    await content(app.payload, { slug: 'audit-tagged', tagSlugs: ['talk'] })
    expect((await app.request('POST', '/v1/tags/talk/rename', { token: editor, body: { newSlug: 'talks' } })).status).toBe(200)
    const tag = (await app.payload.find({ collection: 'tags', where: { slug: { equals: 'talks' } }, overrideAccess: true })).docs[0]!
    expect(await eventsOf(app, String(tag.id))).toMatchObject([
      { action: 'tag.rename', actor: adminId, targetCollection: 'tags', targetSlug: 'talks', stateBefore: 'talk', stateAfter: 'talks', reason: '1 content item followed' },
    ])
    const res = await app.request('POST', '/v1/catalog/platforms/podcast/rename', { token: catalog, body: { newSlug: 'podcasts' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ slug: 'podcasts' })
    expect(await eventsOf(app, String(res.body.data.id))).toMatchObject([
      { action: 'taxonomy.rename', targetCollection: 'platforms', targetSlug: 'podcasts', stateBefore: 'podcast', stateAfter: 'podcasts', reason: 'platform' },
    ])
    // The catalog follows at once.
    const cat = await app.request('GET', '/v1/catalog')
    expect(JSON.stringify(cat.body.data)).toContain('"podcasts"')
    // A taken slug is 409 and records nothing.
    const before = await countEvents(app)
    const taken = await app.request('POST', '/v1/catalog/platforms/blog/rename', { token: catalog, body: { newSlug: 'youtube' } })
    expect(taken.status).toBe(409)
    expect(await countEvents(app)).toBe(before)
  })

  it('a failure after the status move, inside its transaction, leaves neither the move, its jobs nor the event', async () => {
    const { app, adminId } = await setup()
    const item = await content(app.payload, { slug: 'audit-crash', status: 'pending', approvedAt: null })
    const before = await countEvents(app)
    const actor = { id: adminId, permissions: ['content.approve'] }
    const boom = () => {
      throw new Error('power cut')
    }
    await expect(approveContent(app.payload, { slug: 'audit-crash' }, actor, { afterMove: boom })).rejects.toThrow('power cut')
    await expect(rejectContent(app.payload, { slug: 'audit-crash' }, 'x', actor, { afterMove: boom })).rejects.toThrow('power cut')
    const stored = await app.payload.findByID({ collection: 'content', id: item.id, depth: 0, overrideAccess: true })
    expect(stored).toMatchObject({ status: 'pending', approvedAt: null })
    expect(await countEvents(app)).toBe(before)
    expect(await engine().listFollowUps(app.payload, item.id)).toEqual([])
    // The same for a recorded update (soft delete).
    await expect(
      recordedUpdate(app.payload, {
        collection: 'content',
        id: item.id,
        expect: { isActive: true },
        set: { isActive: false },
        domain: 'content',
        event: { actorId: adminId, action: 'delete', targetSlug: 'audit-crash', stateBefore: 'active', stateAfter: 'deleted', reason: null, at: new Date() },
        afterWrite: boom,
      }),
    ).rejects.toThrow('power cut')
    expect(await app.payload.findByID({ collection: 'content', id: item.id, depth: 0, overrideAccess: true })).toMatchObject({ isActive: true })
    expect(await countEvents(app)).toBe(before)
    // Without the failure, the move and its event commit together.
    await approveContent(app.payload, { slug: 'audit-crash' }, actor)
    expect((await eventsOf(app, item.id)).map((e) => e.action)).toEqual(['approve'])
  })

  it('GET /moderation/events: content.moderate only, newest first, filtered and paginated', async () => {
    const { app, moderator, member, adminId } = await setup()
    expect((await app.request('GET', '/v1/moderation/events')).status).toBe(401)
    expect((await app.request('GET', '/v1/moderation/events', { token: member })).status).toBe(403)
    const all = await app.request('GET', '/v1/moderation/events?limit=100', { token: moderator })
    expect(all.status).toBe(200)
    const ats = all.body.data.map((e: { at: string }) => e.at)
    expect([...ats].sort().reverse()).toEqual(ats)
    expect(all.body.pagination).toMatchObject({ offset: 0, limit: 100, total: all.body.data.length, hasMore: false })
    expect(all.body.data[0].actor).toEqual({ id: adminId, email: ADMIN.email, username: expect.any(String) })

    const rejects = await app.request('GET', '/v1/moderation/events?action=reject', { token: moderator })
    expect(rejects.body.data.map((e: { target: { slug: string } }) => e.target.slug)).toEqual(['audit-reject'])
    expect(rejects.body.data[0]).toMatchObject({ action: 'reject', reason: 'Off topic', stateBefore: 'pending', stateAfter: 'rejected', target: { collection: 'content' } })
    // Items are named by their title as it is now; renamed tags by their label.
    const rejected = (await app.payload.find({ collection: 'content', where: { slug: { equals: 'audit-reject' } }, overrideAccess: true })).docs[0]!
    expect(rejects.body.data[0].target).toEqual({ collection: 'content', id: String(rejected.id), slug: 'audit-reject', title: rejected.title })
    const renames = await app.request('GET', '/v1/moderation/events?action=tag.rename', { token: moderator })
    const renamedTag = (await app.payload.find({ collection: 'tags', where: { slug: { equals: 'talks' } }, overrideAccess: true })).docs[0]!
    expect(renames.body.data[0].target).toMatchObject({ collection: 'tags', slug: 'talks', title: renamedTag.label })
    const byTarget = await app.request('GET', '/v1/moderation/events?target=audit-delete', { token: moderator })
    expect(byTarget.body.data.map((e: { action: string }) => e.action)).toEqual(['restore', 'delete'])
    const byActor = await app.request('GET', `/v1/moderation/events?actor=${adminId}&limit=0`, { token: moderator })
    expect(byActor.body.data).toEqual([])
    expect(byActor.body.pagination.total).toBe(all.body.pagination.total)
    const future = await app.request('GET', '/v1/moderation/events?from=2999-01-01', { token: moderator })
    expect(future.body.pagination.total).toBe(0)
    const today = new Date().toISOString().slice(0, 10)
    const untilToday = await app.request('GET', `/v1/moderation/events?to=${today}`, { token: moderator })
    expect(untilToday.body.pagination.total).toBe(all.body.pagination.total)
    const page2 = await app.request('GET', '/v1/moderation/events?offset=1&limit=2', { token: moderator })
    expect(page2.body.data.map((e: { id: string }) => e.id)).toEqual(all.body.data.slice(1, 3).map((e: { id: string }) => e.id))

    const bad = await app.request('GET', '/v1/moderation/events?action=erase&from=yesterday', { token: moderator })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('validation.failed')
    expect(bad.body.error.details).toEqual([
      { field: 'action', constraint: 'enum', value: 'erase' },
      { field: 'from', constraint: 'type', value: 'yesterday' },
    ])
  })

  it('is never created, edited or deleted through REST, not even by the admin', async () => {
    const { app } = await setup()
    const login = await app.request('POST', '/users/login', { body: ADMIN, headers: freshIp() })
    expect(login.status).toBe(200)
    const cookie = `payload-token=${/payload-token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]}`
    const event = (await app.payload.find({ collection: 'moderation-events', limit: 1, overrideAccess: true })).docs[0]!
    const read = await app.request('GET', `/moderation-events/${event.id}`, { headers: { cookie } })
    expect(read.status).toBe(200)
    const patch = await app.request('PATCH', `/moderation-events/${event.id}`, { headers: { cookie }, body: { reason: 'rewritten' } })
    expect(patch.status).toBe(403)
    const del = await app.request('DELETE', `/moderation-events/${event.id}`, { headers: { cookie } })
    expect(del.status).toBe(403)
    const post = await app.request('POST', '/moderation-events', { headers: { cookie }, body: { action: 'approve', targetCollection: 'content', targetId: 'x', targetSlug: 'x', at: new Date().toISOString() } })
    expect(post.status).toBe(403)
    const after = await app.payload.findByID({ collection: 'moderation-events', id: event.id, depth: 0, overrideAccess: true })
    expect(after).toMatchObject({ action: event.action, reason: event.reason ?? null })
  })
})
