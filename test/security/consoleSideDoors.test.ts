/**
 * The console's REST (/api/<collection>, Payload's own handler) is no side door: workflow
 * fields (content status, approvedAt, isActive, submittedBy, rejectionReason; tag and
 * taxonomy slugs) change only through their services, and a console-created item follows
 * the submit rules. Every refusal is Payload's 400 ValidationError naming the field.
 */
import type { CollectionSlug } from 'payload'
import { describe, expect, it } from 'vitest'

import type { Permission } from '../../src/auth/permissions'
import { renderThumbnail } from '../../src/platform/media/thumbnail'
import { ADMIN, createUser, freshIp, login } from '../auth/helpers'
import { content, taxonomy } from '../content/helpers'
import { type TestApp, testApp } from '../support/app'

type Caller = { id: string; cookie: string; token: string }

let ready:
  | Promise<{
      app: TestApp
      tax: Awaited<ReturnType<typeof taxonomy>>
      moderator: Caller
      approver: Caller
      deleter: Caller
      tagger: Caller
      cataloguer: Caller
      admin: Caller
    }>
  | undefined

async function roleWith(app: TestApp, permissions: Permission[]): Promise<string> {
  const role = await app.payload.create({
    collection: 'roles',
    data: { name: `only-${permissions.join('+')}`, permissions },
    overrideAccess: true,
  })
  return String(role.id)
}

async function consoleCookie(app: TestApp, email: string, password: string): Promise<string> {
  const res = await app.request('POST', '/users/login', { body: { email, password }, headers: freshIp() })
  expect(res.status, res.text).toBe(200)
  const match = /payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')
  expect(match).not.toBeNull()
  return `payload-token=${match![1]}`
}

async function caller(app: TestApp, permissions: Permission[]): Promise<Caller> {
  const user = await createUser(app, [await roleWith(app, permissions)])
  const session = await login(app, user.email, user.password)
  return { id: String(user.id), token: session.accessToken, cookie: await consoleCookie(app, user.email, user.password) }
}

function setup() {
  ready ??= (async () => {
    const app = await testApp()
    const tax = await taxonomy(app.payload)
    const adminSession = await login(app, ADMIN.email, ADMIN.password)
    return {
      app,
      tax,
      moderator: await caller(app, ['content.moderate']),
      approver: await caller(app, ['content.moderate', 'content.approve']),
      deleter: await caller(app, ['content.moderate', 'content.delete']),
      tagger: await caller(app, ['tag.manage']),
      cataloguer: await caller(app, ['catalog.manage']),
      admin: {
        id: String(adminSession.user.id),
        token: adminSession.accessToken,
        cookie: await consoleCookie(app, ADMIN.email, ADMIN.password),
      },
    }
  })()
  return ready
}

const storedContent = (app: TestApp, id: string) => app.payload.findByID({ collection: 'content', id, depth: 0, overrideAccess: true })
const storedTag = (app: TestApp, id: string) => app.payload.findByID({ collection: 'tags', id, depth: 0, overrideAccess: true })
/** One stored field of a document in any collection (the taxonomy cases loop over several). */
const storedField = async (app: TestApp, collection: CollectionSlug, id: string, field: string): Promise<unknown> =>
  Reflect.get(await app.payload.findByID({ collection, id, depth: 0, overrideAccess: true }), field)

/** Payload's ValidationError answer, naming the refused fields. */
function expectRefused(res: { status: number; body: any }, collection: string, paths: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(400)
  expect(res.body.errors).toHaveLength(1)
  expect(res.body.errors[0].name).toBe('ValidationError')
  expect(res.body.errors[0].data.collection).toBe(collection)
  expect(res.body.errors[0].data.errors.map((e: any) => e.path).sort()).toEqual([...paths].sort())
  for (const e of res.body.errors[0].data.errors) expect(e.message).toMatch(/\S/)
}

describe('content workflow fields through PATCH /api/content/<id>', () => {
  it('refuses publishing a pending item (status: approved) for a content.moderate holder; the item stays pending', async () => {
    const { app, moderator } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null })
    const res = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie: moderator.cookie }, body: { status: 'approved' } })
    expectRefused(res, 'content', ['status'])
    const after = await storedContent(app, item.id)
    expect(after).toMatchObject({ status: 'pending', approvedAt: null, isActive: true })
    expect((await app.request('GET', `/v1/content/${item.slug}`)).status).toBe(404)
  })

  it('refuses status and approvedAt even for the admin: approval goes through the approve service', async () => {
    const { app, admin } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null })
    const res = await app.request('PATCH', `/content/${item.id}`, {
      headers: { cookie: admin.cookie },
      body: { status: 'approved', approvedAt: '2030-01-01T00:00:00.000Z' },
    })
    expectRefused(res, 'content', ['approvedAt', 'status'])
    expect(await storedContent(app, item.id)).toMatchObject({ status: 'pending', approvedAt: null })
  })

  it('refuses rejected → approved', async () => {
    const { app, moderator } = await setup()
    const item = await content(app.payload, { status: 'rejected', approvedAt: null, rejectionReason: 'spam' })
    const res = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie: moderator.cookie }, body: { status: 'approved' } })
    expectRefused(res, 'content', ['status'])
    expect(await storedContent(app, item.id)).toMatchObject({ status: 'rejected', approvedAt: null, rejectionReason: 'spam' })
  })

  it('refuses a soft delete ({ isActive: false }) through PATCH, with or without content.delete', async () => {
    const { app, moderator, deleter } = await setup()
    const item = await content(app.payload, {})
    for (const who of [moderator, deleter]) {
      const res = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie: who.cookie }, body: { isActive: false } })
      expectRefused(res, 'content', ['isActive'])
    }
    expect(await storedContent(app, item.id)).toMatchObject({ status: 'approved', isActive: true })
    expect((await app.request('GET', `/v1/content/${item.slug}`)).status).toBe(200)
  })

  it('refuses the same moves through a bulk PATCH /api/content?where=… and a duplicate of an approved item', async () => {
    const { app, moderator } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null })
    const bulk = await app.request('PATCH', `/content?where[id][equals]=${item.id}`, { headers: { cookie: moderator.cookie }, body: { status: 'approved' } })
    expect(bulk.status).toBe(400)
    expect(bulk.body.docs).toEqual([])
    expect(bulk.body.errors).toHaveLength(1)
    expect(bulk.body.errors[0].id).toBe(item.id)
    expect(await storedContent(app, item.id)).toMatchObject({ status: 'pending', approvedAt: null })

    const approved = await content(app.payload, {})
    const copies = async () => (await app.payload.count({ collection: 'content', where: { title: { equals: approved.title } }, overrideAccess: true })).totalDocs
    const duplicate = await app.request('POST', `/content/${approved.id}/duplicate`, { headers: { cookie: moderator.cookie }, body: {} })
    expectRefused(duplicate, 'content', ['approvedAt', 'status'])
    expect(await copies()).toBe(1)
  })

  it('refuses changing submittedBy and rejectionReason', async () => {
    const { app, moderator, admin } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null, submittedBy: admin.id })
    const res = await app.request('PATCH', `/content/${item.id}`, {
      headers: { cookie: moderator.cookie },
      body: { submittedBy: moderator.id, rejectionReason: 'made up' },
    })
    expectRefused(res, 'content', ['rejectionReason', 'submittedBy'])
    expect(await storedContent(app, item.id)).toMatchObject({ submittedBy: admin.id, rejectionReason: null })
  })

  it('still saves editable fields, also when the edit form sends the unchanged workflow fields along', async () => {
    const { app, moderator, admin, tax } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null, submittedBy: admin.id, tagSlugs: ['sql'] })
    const plain = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie: moderator.cookie }, body: { title: 'Retitled' } })
    expect(plain.status, plain.text).toBe(200)
    expect(plain.body.doc).toMatchObject({ title: 'Retitled', status: 'pending', approvedAt: null })

    const before = await storedContent(app, item.id)
    const form = await app.request('PATCH', `/content/${item.id}`, {
      headers: { cookie: moderator.cookie },
      body: {
        ...before,
        title: 'Edited in the form',
        description: 'New words',
        url: 'https://example.com/edited',
        tagSlugs: ['sql', 'tutorial'],
        group: tax.programming.id,
        channel: tax.web.id,
        platform: tax.blog.id,
      },
    })
    expect(form.status, form.text).toBe(200)
    expect(await storedContent(app, item.id)).toMatchObject({
      title: 'Edited in the form',
      description: 'New words',
      tagSlugs: ['sql', 'tutorial'],
      group: tax.programming.id,
      channel: tax.web.id,
      platform: tax.blog.id,
      status: 'pending',
      approvedAt: null,
      isActive: true,
      submittedBy: admin.id,
    })
  })

  it('refuses unknown tags on an edit (400), leaving the tags as they were', async () => {
    const { app, moderator } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null, tagSlugs: ['sql'] })
    const res = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie: moderator.cookie }, body: { tagSlugs: ['sql', 'no-such-tag'] } })
    expectRefused(res, 'content', ['tagSlugs.1'])
    expect((await storedContent(app, item.id)).tagSlugs).toEqual(['sql'])
  })
})

describe('thumbnailUrl follows the thumbnail, whatever the route', () => {
  const upload = async (app: TestApp, name: string) => {
    const png = await renderThumbnail({ title: name, color: '#336699' })
    return app.payload.create({ collection: 'media', data: { alt: name }, file: { data: png, mimetype: 'image/png', name, size: png.length }, overrideAccess: true })
  }

  it('refuses an external URL typed into thumbnailUrl (a tracking pixel); the public item keeps none', async () => {
    const { app, moderator } = await setup()
    const item = await content(app.payload, {})
    const res = await app.request('PATCH', `/content/${item.id}`, {
      headers: { cookie: moderator.cookie },
      body: { thumbnailUrl: 'https://tracker.example/pixel.gif' },
    })
    expectRefused(res, 'content', ['thumbnailUrl'])
    expect((await storedContent(app, item.id)).thumbnailUrl ?? null).toBeNull()
    expect((await app.request('GET', `/v1/content/${item.slug}`)).body.data.thumbnailUrl).toBeNull()
  })

  it('a moderator may choose another uploaded media item: the URL follows it, and clears with it', async () => {
    const { app, moderator } = await setup()
    const item = await content(app.payload, {})
    const media = await upload(app, 'chosen-thumbnail.png')
    const chosen = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie: moderator.cookie }, body: { thumbnail: media.id } })
    expect(chosen.status, chosen.text).toBe(200)
    expect((await storedContent(app, item.id)).thumbnailUrl).toBe(media.url)
    expect((await app.request('GET', `/v1/content/${item.slug}`)).body.data.thumbnailUrl).toMatch(new RegExp(`${media.url}$`))
    // Both at once: the typed URL loses to the media record's.
    const both = await app.request('PATCH', `/content/${item.id}`, {
      headers: { cookie: moderator.cookie },
      body: { thumbnail: media.id, thumbnailUrl: 'https://tracker.example/pixel.gif' },
    })
    expectRefused(both, 'content', ['thumbnailUrl'])
    const cleared = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie: moderator.cookie }, body: { thumbnail: null } })
    expect(cleared.status, cleared.text).toBe(200)
    expect((await storedContent(app, item.id)).thumbnailUrl ?? null).toBeNull()
  })

  it('on create too, and through the Local API', async () => {
    const { app, moderator } = await setup()
    const res = await app.request('POST', '/content', {
      headers: { cookie: moderator.cookie },
      body: { title: 'Pixel', url: 'https://example.org/pixel-create', thumbnailUrl: 'https://tracker.example/p.gif' },
    })
    expectRefused(res, 'content', ['thumbnailUrl'])
    const item = await content(app.payload, {})
    const err = await app.payload
      .update({ collection: 'content', id: item.id, data: { thumbnailUrl: 'https://tracker.example/p.gif' }, overrideAccess: true })
      .then(() => null, (e: unknown) => e)
    expect((err as Error)?.name).toBe('ValidationError')
  })
})

describe('POST /api/content follows the submit rules', () => {
  it('creates a pending item submitted by the caller, with a derived unique slug', async () => {
    const { app, moderator, tax } = await setup()
    const body = { title: 'Console Made Item', url: 'https://example.com/console', tagSlugs: ['sql'], group: tax.programming.id, channel: tax.web.id }
    const a = await app.request('POST', '/content', { headers: { cookie: moderator.cookie }, body })
    expect(a.status, a.text).toBe(201)
    expect(a.body.doc).toMatchObject({
      slug: 'console-made-item',
      status: 'pending',
      approvedAt: null,
      isActive: true,
      submittedBy: expect.anything(),
      rejectionReason: null,
      tagSlugs: ['sql'],
    })
    const doc = await storedContent(app, a.body.doc.id)
    expect(doc).toMatchObject({ status: 'pending', approvedAt: null, isActive: true, submittedBy: moderator.id })
    // Another URL: the same one is a duplicate (test/editorial/duplicates.test.ts).
    const b = await app.request('POST', '/content', { headers: { cookie: moderator.cookie }, body: { ...body, url: 'https://example.com/console-2' } })
    expect(b.status, b.text).toBe(201)
    expect(b.body.doc.slug).toBe('console-made-item-2')
    expect((await app.request('GET', '/v1/content/console-made-item')).status).toBe(404)
  })

  it('accepts the defaults an empty create form sends (status pending, isActive true)', async () => {
    const { app, moderator } = await setup()
    const res = await app.request('POST', '/content', {
      headers: { cookie: moderator.cookie },
      body: { slug: 'form-made', title: 'Form made', url: 'https://example.com/form', status: 'pending', isActive: true, tagSlugs: [] },
    })
    expect(res.status, res.text).toBe(201)
    expect(await storedContent(app, res.body.doc.id)).toMatchObject({ slug: 'form-made', status: 'pending', submittedBy: moderator.id })
  })

  it('refuses an already-approved item with a future approvedAt (400) and writes nothing', async () => {
    const { app, moderator } = await setup()
    const res = await app.request('POST', '/content', {
      headers: { cookie: moderator.cookie },
      body: { slug: 'sneaky', title: 'Sneaky', url: 'https://example.com/sneaky', status: 'approved', approvedAt: '2099-01-01T00:00:00.000Z', tagSlugs: ['sql'] },
    })
    expectRefused(res, 'content', ['approvedAt', 'status'])
    const other = await app.request('POST', '/content', {
      headers: { cookie: moderator.cookie },
      body: { slug: 'sneaky', title: 'Sneaky', url: 'https://example.com/sneaky', isActive: false, submittedBy: (await setup()).admin.id },
    })
    expectRefused(other, 'content', ['isActive', 'submittedBy'])
    const found = await app.payload.find({ collection: 'content', where: { slug: { equals: 'sneaky' } }, overrideAccess: true })
    expect(found.totalDocs).toBe(0)
  })

  it('refuses unknown tags (400) and unknown references', async () => {
    const { app, moderator } = await setup()
    const res = await app.request('POST', '/content', {
      headers: { cookie: moderator.cookie },
      body: { title: 'Ghost tags', url: 'https://example.com/ghost', tagSlugs: ['sql', 'ghost-one'] },
    })
    expectRefused(res, 'content', ['tagSlugs.1'])
    const badGroup = await app.request('POST', '/content', {
      headers: { cookie: moderator.cookie },
      body: { title: 'Ghost group', url: 'https://example.com/ghost-group', platform: '0123456789abcdef01234567' },
    })
    expect(badGroup.status).toBe(400)
    const found = await app.payload.find({ collection: 'content', where: { title: { like: 'Ghost' } }, overrideAccess: true })
    expect(found.totalDocs).toBe(0)
  })
})

describe('tag slugs through PATCH /api/tags/<id>', () => {
  it('refuses a slug change for a tag.manage holder: slug, content tagSlugs and the audit stay as they were', async () => {
    const { app, tagger } = await setup()
    const tag = (await app.payload.find({ collection: 'tags', where: { slug: { equals: 'javascript' } }, overrideAccess: true })).docs[0]!
    const items = [await content(app.payload, { tagSlugs: ['javascript'] }), await content(app.payload, { tagSlugs: ['javascript', 'sql'] })]
    const res = await app.request('PATCH', `/tags/${tag.id}`, { headers: { cookie: tagger.cookie }, body: { slug: 'js' } })
    expectRefused(res, 'tags', ['slug'])
    expect((await storedTag(app, String(tag.id))).slug).toBe('javascript')
    for (const item of items) expect((await storedContent(app, item.id)).tagSlugs).toContain('javascript')
    expect((await app.payload.count({ collection: 'tag-renames' as 'tags', overrideAccess: true })).totalDocs).toBe(0)
    // The label is not a workflow field.
    const label = await app.request('PATCH', `/tags/${tag.id}`, { headers: { cookie: tagger.cookie }, body: { label: 'JavaScript (JS)', slug: 'javascript' } })
    expect(label.status, label.text).toBe(200)
    expect(label.body.doc).toMatchObject({ slug: 'javascript', label: 'JavaScript (JS)' })
  })
})

describe('taxonomy slugs through PATCH /api/<collection>/<id>', () => {
  it('refuses slug (key) changes of surfaces, groups, channels, platforms and facets for a catalog.manage holder', async () => {
    const { app, cataloguer, tax } = await setup()
    const facet = (await app.payload.find({ collection: 'facets', where: { key: { equals: 'topic' } }, overrideAccess: true })).docs[0]!
    const cases: [CollectionSlug, string, string, string][] = [
      ['surfaces', tax.learn.id, 'slug', 'learn'],
      ['groups', tax.data.id, 'slug', 'data'],
      ['channels', tax.systems.id, 'slug', 'systems'],
      ['platforms', tax.podcast.id, 'slug', 'podcast'],
      ['facets', String(facet.id), 'key', 'topic'],
    ]
    for (const [collection, id, field, old] of cases) {
      const res = await app.request('PATCH', `/${collection}/${id}`, { headers: { cookie: cataloguer.cookie }, body: { [field]: `${old}-renamed` } })
      expectRefused(res, collection, [field])
      expect(await storedField(app, collection, id, field)).toBe(old)
      const label = await app.request('PATCH', `/${collection}/${id}`, { headers: { cookie: cataloguer.cookie }, body: { label: `${old} relabelled` } })
      expect(label.status, label.text).toBe(200)
    }
  })
})

describe('the services still make the workflow moves', () => {
  it('approve through /api/v1 and the console endpoint; reject; soft delete in the console needs content.delete', async () => {
    const { app, approver, moderator, deleter } = await setup()
    const viaApi = await content(app.payload, { status: 'pending', approvedAt: null })
    const approved = await app.request('POST', `/v1/content/${viaApi.slug}/approve`, { token: approver.token })
    expect(approved.status, approved.text).toBe(200)
    expect(approved.body.data).toMatchObject({ slug: viaApi.slug, status: 'approved' })
    expect((await storedContent(app, viaApi.id)).approvedAt).not.toBeNull()

    const viaConsole = await content(app.payload, { status: 'pending', approvedAt: null })
    const consoleApprove = await app.request('POST', `/content/moderation/${viaConsole.id}/approve`, { headers: { cookie: approver.cookie }, body: {} })
    expect(consoleApprove.status, consoleApprove.text).toBe(200)
    expect(await storedContent(app, viaConsole.id)).toMatchObject({ status: 'approved' })

    const toReject = await content(app.payload, { status: 'pending', approvedAt: null })
    const rejected = await app.request('POST', `/content/moderation/${toReject.id}/reject`, { headers: { cookie: approver.cookie }, body: { reason: 'Off topic' } })
    expect(rejected.status, rejected.text).toBe(200)
    expect(await storedContent(app, toReject.id)).toMatchObject({ status: 'rejected', rejectionReason: 'Off topic' })

    const noDelete = await app.request('POST', `/content/moderation/${viaConsole.id}/delete`, { headers: { cookie: moderator.cookie }, body: {} })
    expect(noDelete.status).toBe(403)
    expect(noDelete.body.error.code).toBe('auth.forbidden')
    expect((await storedContent(app, viaConsole.id)).isActive).toBe(true)
    const deleted = await app.request('POST', `/content/moderation/${viaConsole.id}/delete`, { headers: { cookie: deleter.cookie }, body: {} })
    expect(deleted.status, deleted.text).toBe(200)
    expect(deleted.body.data).toEqual({ deleted: true, id: viaConsole.id })
    expect((await storedContent(app, viaConsole.id)).isActive).toBe(false)
  })

  it('tag rename through /api/v1 and the console endpoint carries the content along and writes the audit', async () => {
    const { app, tagger } = await setup()
    const tag = (await app.payload.find({ collection: 'tags', where: { slug: { equals: 'talk' } }, overrideAccess: true })).docs[0]!
    const item = await content(app.payload, { tagSlugs: ['talk'] })
    const viaApi = await app.request('POST', '/v1/tags/talk/rename', { token: tagger.token, body: { newSlug: 'talks' } })
    expect(viaApi.status, viaApi.text).toBe(200)
    expect(viaApi.body.data).toMatchObject({ slug: 'talks' })
    const viaConsole = await app.request('POST', `/tags/rename/${tag.id}`, { headers: { cookie: tagger.cookie }, body: { newSlug: 'conference-talk' } })
    expect(viaConsole.status, viaConsole.text).toBe(200)
    expect((await storedContent(app, item.id)).tagSlugs).toEqual(['conference-talk'])
    expect((await app.payload.count({ collection: 'tag-renames' as 'tags', overrideAccess: true })).totalDocs).toBe(2)
  })

  it('taxonomy rename through /api/v1 still works', async () => {
    const { app, cataloguer, admin } = await setup()
    const platform = await app.request('POST', '/v1/catalog/platforms/youtube/rename', { token: cataloguer.token, body: { newSlug: 'video' } })
    expect(platform.status, platform.text).toBe(200)
    expect(platform.body.data.slug).toBe('video')
    const surface = await app.request('POST', '/v1/catalog/surfaces/discover/rename', { token: admin.token, body: { newSlug: 'explore' } })
    expect(surface.status, surface.text).toBe(200)
    expect(surface.body.data.slug).toBe('explore')
  })
})
