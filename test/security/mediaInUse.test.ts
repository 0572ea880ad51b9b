/**
 * Media shown by the service is protected, and follow-up work never adopts a file it did not
 * create. A `catalog.manage` holder once could delete or replace a content item's thumbnail (the
 * public thumbnailUrl then 500s) and plant `thumb-<contentId>.png`, which the thumbnail job
 * adopted on approval.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { FollowUpRunner } from '../../src/jobs/followUpRunner'
import { stopFollowUps } from '../../src/jobs/followUps'
import { thumbnailFileName } from '../../src/jobs/followUpTasks'
import { renderThumbnail } from '../../src/platform/media/thumbnail'
import { consoleCookie, createUser } from '../auth/helpers'
import { content, tokenFor } from '../content/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let cataloguer: string
let moderator: string
let submitter: string

const upload = async (name: string) => {
  const png = await renderThumbnail({ title: name, color: '#336699' })
  return app.payload.create({ collection: 'media', data: { alt: name }, file: { data: png, mimetype: 'image/png', name, size: png.length }, overrideAccess: true })
}

beforeAll(async () => {
  app = await testApp()
  await stopFollowUps()
  const role = await app.payload.create({ collection: 'roles', data: { name: 'media-cataloguer', permissions: ['catalog.manage'] }, overrideAccess: true })
  const user = await createUser(app, [String(role.id)])
  cataloguer = await consoleCookie(app, user.email, user.password)
  // A write is judged by its user's permissions now: the admin's (it holds these two).
  const admin = (await app.payload.find({ collection: 'users', where: { email: { equals: 'admin@example.com' } }, limit: 1, overrideAccess: true })).docs[0]!
  submitter = String(admin.id)
  moderator = await tokenFor(['content.moderate', 'content.approve'], submitter)
})

describe('media in use', () => {
  it("a content item's thumbnail cannot be deleted or have its file replaced (409); the item still shows it", async () => {
    const media = await upload('in-use.png')
    const item = await content(app.payload, { thumbnail: media.id })
    const del = await app.request('DELETE', `/media/${media.id}`, { headers: { cookie: cataloguer } })
    expect(del.status, del.text).toBe(409)
    expect(del.text).toContain(`content:${item.slug}`)
    // Replacing the file (Payload's "replace file"; the Local API carries the binary file as the form does).
    const png = await renderThumbnail({ title: 'other', color: '#993366' })
    const replace = await app.payload
      .update({ collection: 'media', id: media.id, data: {}, file: { data: png, mimetype: 'image/png', name: 'replacement.png', size: png.length }, overrideAccess: true })
      .then(() => null, (e: unknown) => e as { status?: number; message?: string })
    expect(replace?.status).toBe(409)
    expect(replace?.message).toContain(`content:${item.slug}`)
    const stored = await app.payload.findByID({ collection: 'media', id: media.id, depth: 0 })
    expect(stored.filename).toBe(media.filename)
    expect((await app.request('GET', `/media/file/${media.filename}`)).status).toBe(200)
  })

  it('the branding logo is protected too; media nobody shows is free to delete', async () => {
    const logo = await upload('logo.png')
    await app.payload.updateGlobal({ slug: 'branding', data: { logo: logo.id }, overrideAccess: true })
    expect((await app.request('DELETE', `/media/${logo.id}`, { headers: { cookie: cataloguer } })).status).toBe(409)
    const free = await upload('free.png')
    expect((await app.request('DELETE', `/media/${free.id}`, { headers: { cookie: cataloguer } })).status).toBe(200)
  })
})

describe('follow-ups adopt only what they create', () => {
  it('a planted thumb-<id>.png is not adopted on approval: the item gets a file of its own', async () => {
    const item = await content(app.payload, { slug: 'planted', status: 'pending', approvedAt: null, submittedBy: submitter })
    const planted = await upload(thumbnailFileName(item.id))
    expect(planted.filename).toBe(thumbnailFileName(item.id))
    expect((await app.request('POST', '/v1/content/planted/approve', { token: moderator })).status).toBe(200)
    await new FollowUpRunner(app.payload, { workerId: 'planted' }).drain()
    const doc = await app.payload.findByID({ collection: 'content', id: item.id, depth: 0, overrideAccess: true })
    expect(doc.thumbnail).toBeTruthy()
    expect(String(doc.thumbnail)).not.toBe(String(planted.id))
  })
})
