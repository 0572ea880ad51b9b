/**
 * Approve, reject and delete racing on one item, through the API (Promise.all). Every move is
 * guarded by the state its request read (status and isActive): approve and reject never both
 * win; a request that lost the race is 409 `content.conflict`, never a 5xx; and a deleted item
 * never ends with a thumbnail or a notification (the delete cancels its queued follow-ups, and
 * the runner re-checks the item). Before, 1 trial in 20 left a deleted item approved with both.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { engine } from '../../src/db/engine'
import { FollowUpRunner } from '../../src/jobs/followUpRunner'
import { stopFollowUps } from '../../src/jobs/followUps'
import { content, tokenFor } from '../content/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let moderator: string
let submitter: string

beforeAll(async () => {
  app = await testApp()
  // The test drains follow-ups itself, after each race.
  await stopFollowUps()
  const admin = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
  submitter = String(admin.id)
  moderator = await tokenFor(['content.moderate', 'content.approve', 'content.delete'], submitter)
})

const TRIALS = 20

describe('approve, reject and delete racing on one item', () => {
  it(`${TRIALS} races: at most one decision wins, losers are 409, a deleted item gets no follow-up`, async () => {
    const outcomes: string[] = []
    for (let i = 0; i < TRIALS; i++) {
      const slug = `race-${i}`
      const item = await content(app.payload, { slug, status: 'pending', approvedAt: null, submittedBy: submitter })
      const [approve, reject, del] = await Promise.all([
        app.request('POST', `/v1/content/${slug}/approve`, { token: moderator }),
        app.request('POST', `/v1/content/${slug}/reject`, { token: moderator, body: { reason: 'Off topic' } }),
        app.request('DELETE', `/v1/content/${slug}`, { token: moderator }),
      ])
      for (const res of [approve, reject, del]) {
        expect([200, 409, 422, 404], res.text).toContain(res.status)
        if (res.status === 409) {
          expect(res.body.error.code).toBe('content.conflict')
          expect(Object.keys(res.body.error.details).sort()).toEqual(['isActive', 'status'])
        }
      }
      expect(approve.status === 200 && reject.status === 200, 'approve and reject both won').toBe(false)
      outcomes.push([approve, reject, del].map((r) => r.status).join('/'))

      await new FollowUpRunner(app.payload, { workerId: `race-${i}` }).drain()
      const doc = await app.payload.findByID({ collection: 'content', id: item.id, depth: 0, overrideAccess: true })
      const notifications = await app.payload.count({ collection: 'notifications', where: { content: { equals: item.id } }, overrideAccess: true })
      const queued = (await engine().listFollowUps(app.payload, item.id)).filter((r) => r.status === 'queued')
      if (doc.isActive === false) {
        expect(doc.thumbnail ?? null, `trial ${i}: deleted with a thumbnail`).toBeNull()
        expect(notifications.totalDocs, `trial ${i}: deleted with a notification`).toBe(0)
        expect(queued).toEqual([])
      } else {
        // The delete lost: the winning decision ran its follow-ups.
        expect(del.status).toBe(409)
        expect(['approved', 'rejected']).toContain(doc.status)
        expect(notifications.totalDocs).toBe(1)
        if (doc.status === 'approved') expect(doc.thumbnailUrl).toMatch(/^\/api\/media\/file\//)
      }
    }
    // Every trial had a winner.
    expect(outcomes.every((o) => o.includes('200'))).toBe(true)
  })

  it('a request that read the item already decided keeps the spec answers: 422 for a move, 404 once deleted', async () => {
    await content(app.payload, { slug: 'decided', status: 'approved', submittedBy: submitter })
    expect((await app.request('POST', '/v1/content/decided/reject', { token: moderator, body: {} })).status).toBe(422)
    expect((await app.request('DELETE', '/v1/content/decided', { token: moderator })).status).toBe(200)
    expect((await app.request('POST', '/v1/content/decided/approve', { token: moderator })).status).toBe(404)
    // Deleting again is the same outcome (idempotent).
    expect((await app.request('DELETE', '/v1/content/decided', { token: moderator })).status).toBe(200)
  })
})
