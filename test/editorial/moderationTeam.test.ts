/**
 * The console's decisions when two moderators act on one item (issue 53.4), through its
 * endpoints: an identical decision someone made first answers the item and who decided it (both
 * wanted the same); a different one keeps its 422/409 and says who decided and when; the queue's
 * status says what became of the rows it shows, and its count. The API keeps the spec's answers.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { consoleCookie, createUser } from '../auth/helpers'
import { content, taxonomy } from '../content/helpers'
import { type TestApp, testApp } from '../support/app'

let app: TestApp
let ann: string
let ben: string
let benToken: string
let annId: string
let benId: string
let benName: string

beforeAll(async () => {
  app = await testApp()
  await taxonomy(app.payload)
  const a = await createUser(app, ['moderator'])
  const b = await createUser(app, ['moderator'])
  ann = await consoleCookie(app, a.email, a.password)
  ben = await consoleCookie(app, b.email, b.password)
  annId = a.id
  benId = b.id
  benName = b.username
  benToken = (await app.request('POST', '/v1/auth/login', { body: { email: b.email, password: b.password }, headers: { 'x-forwarded-for': '10.9.9.9' } })).body.data.accessToken
}, 120_000)

const pending = (slug: string) => content(app.payload, { slug, status: 'pending', approvedAt: null })
const decide = (cookie: string, id: string, action: 'approve' | 'reject', reason?: string) =>
  app.request('POST', `/content/moderation/${id}/${action}`, { headers: { cookie }, body: reason ? { reason } : {} })

describe('two moderators, one item', () => {
  it('the same decision at once: both answered with the approved item, one told who decided first', async () => {
    const item = await pending('team-same')
    const [one, two] = await Promise.all([decide(ann, item.id, 'approve'), decide(ben, item.id, 'approve')])
    expect([one.status, two.status]).toEqual([200, 200])
    expect([one.body.data.status, two.body.data.status]).toEqual(['approved', 'approved'])
    const told = [one, two].filter((r) => r.body.data.alreadyDecided)
    expect(told).toHaveLength(1)
    expect(told[0]!.body.data.alreadyDecided).toMatchObject({ by: { name: expect.any(String) }, at: expect.any(String) })
    // One approval in the audit trail.
    const events = await app.payload.find({ collection: 'moderation-events', where: { targetId: { equals: item.id } }, overrideAccess: true })
    expect(events.docs.map((e) => e.action)).toEqual(['approve'])
  })

  it('a different decision after another: 422 naming who decided and when; the item keeps the first decision', async () => {
    const item = await pending('team-other')
    expect((await decide(ben, item.id, 'reject', 'Duplicate')).status).toBe(200)
    const late = await decide(ann, item.id, 'approve')
    expect(late.status).toBe(422)
    expect(late.body.error.code).toBe('content.state_invalid')
    expect(late.body.error.details).toMatchObject({ status: 'rejected', decidedBy: { name: expect.any(String) }, decidedAt: expect.any(String) })
    expect(late.body.error.message).toMatch(/already rejected by/)
    expect((await app.payload.findByID({ collection: 'content', id: item.id, overrideAccess: true })).status).toBe('rejected')
  })

  it('the API keeps the specification’s answer: approving an approved item is 422 content.state_invalid', async () => {
    await pending('team-api')
    expect((await app.request('POST', '/v1/content/team-api/approve', { token: benToken })).status).toBe(200)
    const again = await app.request('POST', '/v1/content/team-api/approve', { token: benToken })
    expect(again.status).toBe(422)
    expect(again.body.error.code).toBe('content.state_invalid')
  })

  it('the queue’s status: the shown rows someone decided, by whom, and the count now', async () => {
    const keep = await pending('team-status-keep')
    const gone = await pending('team-status-gone')
    expect((await decide(ben, gone.id, 'approve')).status).toBe(200)
    const status = await app.request('GET', `/content/moderation/status?ids=${keep.id},${gone.id},nothex`, { headers: { cookie: ann } })
    expect(status.status, status.text).toBe(200)
    expect(status.body.data.decided).toEqual([{ id: gone.id, status: 'approved', by: { id: expect.any(String), name: expect.any(String) }, at: expect.any(String) }])
    expect(status.body.data.pending).toBeGreaterThanOrEqual(1)
    // Moderators only.
    expect((await app.request('GET', `/content/moderation/status?ids=${keep.id}`)).status).toBe(401)
  })

  it('the queue’s status names who has a shown item open in the edit view (a light claim); not the viewer, not a lock gone stale', async () => {
    const open = await pending('team-editing-open')
    const mine = await pending('team-editing-mine')
    const stale = await pending('team-editing-stale')
    // Payload's document locks, as the edit view takes them.
    const lock = (id: string, user: string) =>
      app.payload.create({ collection: 'payload-locked-documents', data: { document: { relationTo: 'content', value: id }, user: { relationTo: 'users', value: user } } as never, overrideAccess: true })
    await lock(open.id, benId)
    await lock(mine.id, annId)
    const old = await lock(stale.id, benId)
    await app.payload.db.updateOne({ collection: 'payload-locked-documents', id: old.id, data: { updatedAt: new Date(Date.now() - 10 * 60_000).toISOString() } })
    const status = await app.request('GET', `/content/moderation/status?ids=${open.id},${mine.id},${stale.id}`, { headers: { cookie: ann } })
    expect(status.status, status.text).toBe(200)
    expect(status.body.data.editing).toEqual([{ id: open.id, by: { id: benId, name: benName } }])
  })
})
