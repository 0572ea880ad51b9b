import { describe, expect, it } from 'vitest'

import { emit } from '../../src/events/bus'
import { FOLLOW_UP_QUEUE, kickFollowUps } from '../../src/jobs/followUps'
import { testApp } from '../support/app'

async function until<T>(probe: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function fixture() {
  const app = await testApp()
  const p = app.payload
  const surface = await p.create({ collection: 'surfaces', data: { slug: 's-fu', label: 'S', routePrefix: '/s', browseMode: 'grid', accentColor: '#000000' }, overrideAccess: true })
  const group = await p.create({ collection: 'groups', data: { slug: 'g-fu', label: 'G', color: '#dc2626', surface: surface.id }, overrideAccess: true })
  const admin = (await p.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
  const content = await p.create({
    collection: 'content',
    data: { slug: 'follow-up-item', title: 'Follow-up item', url: 'https://example.com/a', group: group.id, status: 'approved', approvedAt: new Date().toISOString(), submittedBy: admin.id },
    overrideAccess: true,
  })
  return { app, content, admin }
}

describe('approval follow-ups', () => {
  it('render a thumbnail upload in the group colour and notify the submitter, after the emitter returned', async () => {
    const { app, content, admin } = await fixture()
    const started = performance.now()
    emit('content.approved', { contentId: String(content.id), slug: content.slug as string, submittedBy: String(admin.id), actorId: String(admin.id) })
    expect(performance.now() - started).toBeLessThan(5) // the emitter does not wait for the work
    const withThumb = await until(async () => {
      const doc = (await app.payload.findByID({ collection: 'content', id: content.id, depth: 1, overrideAccess: true })) as any
      return doc.thumbnail ? doc : null
    })
    expect(withThumb.thumbnail.mimeType).toBe('image/png')
    expect(withThumb.thumbnail.url).toMatch(/thumb-follow-up-item.*\.png$/)
    // The ContentDto carries it.
    const dto = await app.request('GET', '/v1/content/follow-up-item')
    expect(dto.body.data.thumbnailUrl).toBe(withThumb.thumbnail.url)
    const notes = await until(async () => {
      const found = await app.payload.find({ collection: 'notifications', where: { content: { equals: content.id } }, overrideAccess: true })
      return found.totalDocs > 0 ? found : null
    })
    expect(notes.docs[0]).toMatchObject({ kind: 'content.approved', message: '“Follow-up item” was approved.' })
  })

  it('logs and retries a failing follow-up instead of losing it', async () => {
    const app = await testApp()
    await app.payload.jobs.queue({ task: 'contentThumbnail', queue: FOLLOW_UP_QUEUE, input: { contentId: 'ffffffffffffffffffffffff' } })
    kickFollowUps(app.payload)
    const job = await until(async () => {
      const found = await app.payload.find({ collection: 'payload-jobs', where: { taskSlug: { equals: 'contentThumbnail' } }, overrideAccess: true })
      const j = found.docs.find((d: any) => d.input?.contentId === 'ffffffffffffffffffffffff') as any
      return j && j.totalTried >= 1 ? j : null
    })
    expect(job.hasError === true || job.totalTried >= 1).toBe(true)
    expect(job.completedAt ?? null).toBeNull()
    // The job row is kept (with its error) for the next retry, not dropped.
    expect(job.log?.some((l: any) => l.state === 'failed')).toBe(true)
    // And the failure is in the log.
    expect(app.logs.some((l) => l.level === 'error' && l.err?.type === 'TaskError')).toBe(true)
  })
})
