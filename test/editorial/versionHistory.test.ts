/**
 * History an editor can go back to (issue 53.2): content, the taxonomy and the branding keep
 * Payload's versions; those who may change a document may read them, nobody else; a restore runs
 * every rule a save runs and brings back the content, never the workflow (status, soft delete and
 * renamed slugs stay as they are now).
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { ADMIN, consoleCookie, createUser } from '../auth/helpers'
import { content, facetId, taxonomy } from '../content/helpers'
import { type TestApp, testApp } from '../support/app'
import { renameTag } from '../../src/services/tagWrites'
import { approveContent } from '../../src/services/contentWrites'

let app: TestApp
let admin: string
let member: string

beforeAll(async () => {
  app = await testApp()
  await taxonomy(app.payload)
  admin = await consoleCookie(app, ADMIN.email, ADMIN.password)
  const role = await app.payload.create({ collection: 'roles', data: { name: 'history-readers', permissions: ['content.submit', 'content.moderate'] }, overrideAccess: true })
  const someone = await createUser(app, [String(role.id)])
  member = await consoleCookie(app, someone.email, someone.password)
}, 120_000)

/** A console save, as the edit form sends it. */
const save = (cookie: string, path: string, body: Record<string, unknown>) => {
  const form = `--x\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n${JSON.stringify(body)}\r\n--x--\r\n`
  return app.request('PATCH', path, { rawBody: form, headers: { cookie, 'content-type': 'multipart/form-data; boundary=x' } })
}
const versionsOf = async (collection: string, id: string, cookie = admin) =>
  app.request('GET', `/${collection}/versions?where[parent][equals]=${id}&sort=-createdAt&depth=0`, { headers: { cookie } })
const restore = (collection: string, versionId: string, cookie = admin) => app.request('POST', `/${collection}/versions/${versionId}`, { headers: { cookie } })

describe('version history', () => {
  it('keeps a tag’s versions; a restore brings its label back and keeps the slug its rename gave it', async () => {
    const topic = await facetId(app.payload, 'topic')
    const tag = await app.payload.create({ collection: 'tags', data: { slug: 'history-tag', label: 'First label', facet: topic }, overrideAccess: true })
    const opened = (await app.request('GET', `/tags/${tag.id}?depth=0`, { headers: { cookie: admin } })).body
    expect((await save(admin, `/tags/${tag.id}`, { ...opened, label: 'Second label' })).status).toBe(200)
    await renameTag(app.payload, { slug: 'history-tag' }, 'history-tag-renamed', { actorId: null })

    const versions = await versionsOf('tags', String(tag.id))
    expect(versions.status).toBe(200)
    const first = versions.body.docs.find((v: { version: { label: string } }) => v.version.label === 'First label')
    expect(first, JSON.stringify(versions.body.docs.map((v: { version: unknown }) => v.version))).toBeDefined()

    const restored = await restore('tags', String(first.id))
    expect(restored.status, JSON.stringify(restored.body)).toBe(200)
    const now = await app.payload.findByID({ collection: 'tags', id: tag.id, overrideAccess: true, depth: 0 })
    expect(now.label).toBe('First label')
    // The slug is a workflow field (renames have their own operation): it stays the renamed one.
    expect(now.slug).toBe('history-tag-renamed')
    // The API sees the restore at once.
    expect((await app.request('GET', '/v1/tags/history-tag-renamed')).body.data.label).toBe('First label')
  })

  it('restores an item’s title without moving its status', async () => {
    const item = await content(app.payload, { slug: 'history-item', title: 'Original title', status: 'pending', approvedAt: null })
    const opened = (await app.request('GET', `/content/${item.id}?depth=0`, { headers: { cookie: admin } })).body
    expect((await save(admin, `/content/${item.id}`, { ...opened, title: 'Edited title' })).status).toBe(200)
    await approveContent(app.payload, { slug: 'history-item' }, null)
    const versions = await versionsOf('content', String(item.id))
    const original = versions.body.docs.find((v: { version: { title: string } }) => v.version.title === 'Original title')
    expect(original).toBeDefined()
    expect(original.version.status).toBe('pending')

    const restored = await restore('content', String(original.id))
    expect(restored.status, JSON.stringify(restored.body)).toBe(200)
    const now = await app.payload.findByID({ collection: 'content', id: item.id, overrideAccess: true, depth: 0 })
    expect(now.title).toBe('Original title')
    expect(now.status).toBe('approved')
    expect(now.approvedAt).toBeTruthy()
  })

  it('shows the history only to those who may change the document; nobody else may restore', async () => {
    const item = await content(app.payload, { slug: 'history-hidden', title: 'Hidden history', status: 'pending', approvedAt: null })
    const opened = (await app.request('GET', `/content/${item.id}?depth=0`, { headers: { cookie: admin } })).body
    await save(admin, `/content/${item.id}`, { ...opened, title: 'Hidden history, edited' })
    const anonymous = await app.request('GET', `/content/versions?where[parent][equals]=${item.id}`)
    expect([401, 403]).toContain(anonymous.status)
    // A moderator may change content: reads its history.
    expect((await versionsOf('content', String(item.id), member)).status).toBe(200)
    // The taxonomy's history is for those who may change it (catalog.manage): not this moderator.
    const surface = (await app.payload.find({ collection: 'surfaces', limit: 1, overrideAccess: true })).docs[0]!
    const refused = await versionsOf('surfaces', String(surface.id), member)
    expect(refused.status).toBe(403)
    const versions = await versionsOf('content', String(item.id))
    expect((await app.request('POST', `/content/versions/${versions.body.docs[0].id}`)).status).toBe(403)
  })

  it('keeps the branding’s versions', async () => {
    const before = await app.request('GET', '/globals/branding?depth=0', { headers: { cookie: admin } })
    const form = (body: Record<string, unknown>) => `--x\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n${JSON.stringify(body)}\r\n--x--\r\n`
    const saved = await app.request('POST', '/globals/branding', { rawBody: form({ ...before.body, name: 'History Co' }), headers: { cookie: admin, 'content-type': 'multipart/form-data; boundary=x' } })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    const versions = await app.request('GET', '/globals/branding/versions?sort=-createdAt&depth=0', { headers: { cookie: admin } })
    expect(versions.status).toBe(200)
    expect(versions.body.docs[0].version.name).toBe('History Co')
  })
})
