import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'

import { engine } from '../../src/db/engine'
import { tokenFor } from '../content/helpers'
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
  const surface = await p.create({ collection: 'surfaces', data: { slug: 's-fu', label: 'S', routePrefix: '/s', browseMode: 'grid', accentColor: '#000000', displayOrder: 0 }, overrideAccess: true })
  const group = await p.create({ collection: 'groups', data: { slug: 'g-fu', label: 'G', color: '#dc2626', surface: surface.id, displayOrder: 0 }, overrideAccess: true })
  const admin = (await p.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
  const content = await p.create({
    collection: 'content',
    data: { slug: 'follow-up-item', title: 'Follow-up item', url: 'https://example.com/a', group: group.id, status: 'pending', submittedBy: admin.id },
    overrideAccess: true,
  })
  return { app, content, admin }
}

describe('approval follow-ups', () => {
  it('render a thumbnail upload in the group colour and notify the submitter, after the approval returned', async () => {
    const { app, content, admin } = await fixture()
    const token = await tokenFor(['content.moderate', 'content.approve'], String(admin.id))
    const res = await app.request('POST', '/v1/content/follow-up-item/approve', { token })
    expect(res.status).toBe(200)
    // The answer did not wait for the work: it is still queued (or at most just claimed).
    expect(res.body.data.thumbnailUrl ?? null).toBeNull()
    const thumbnail = await until(async () => {
      const doc = await app.payload.findByID({ collection: 'content', id: content.id, depth: 1, overrideAccess: true })
      return typeof doc.thumbnail === 'object' ? doc.thumbnail : null
    })
    expect(thumbnail.mimeType).toBe('image/png')
    expect(thumbnail.url).toMatch(new RegExp(`thumb-${content.id}\\.png$`))
    // In the item's group colour (#dc2626): the stored file's background.
    const stored = path.resolve(String(app.payload.collections.media!.config.upload.staticDir), String(thumbnail.filename))
    const { data: corner } = await sharp(stored).extract({ left: 2, top: 2, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true })
    expect([...corner.subarray(0, 3)]).toEqual([0xdc, 0x26, 0x26])
    // The ContentDto carries it.
    const dto = await app.request('GET', '/v1/content/follow-up-item')
    expect(dto.body.data.thumbnailUrl).toBe(thumbnail.url)
    const notes = await until(async () => {
      const found = await app.payload.find({ collection: 'notifications', where: { content: { equals: content.id } }, overrideAccess: true })
      return found.totalDocs > 0 ? found : null
    })
    expect(notes.docs[0]).toMatchObject({ kind: 'content.approved', message: '“Follow-up item” was approved.' })
    // The process's own runner (started with Payload, woken by the approval event) did both.
    const rows = await until(async () => {
      const found = await engine().listFollowUps(app.payload, String(content.id))
      return found.every((r) => r.status === 'done') ? found : null
    })
    expect(rows.map((r) => [r.kind, r.status, r.attempts]).sort()).toEqual([
      ['notify.approved', 'done', 1],
      ['thumbnail', 'done', 1],
    ])
  })
})
