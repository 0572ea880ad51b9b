/**
 * No save overwrites a change its author never saw (issue 53.2). The console's edit form sends
 * the document's `updatedAt` as it loaded it; a save read at an older version than the stored one
 * is 409, naming who changed the document and when (its last console editor, or for a moderation
 * move the audit trail's actor), and changes nothing. Before, a moderator's saved edit was gone
 * after the admin saved over it, with no word to either.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { ADMIN, consoleCookie, createUser, login } from '../auth/helpers'
import { content, facetId, taxonomy } from '../content/helpers'
import { type TestApp, testApp } from '../support/app'

let app: TestApp
let admin: string
let editor: { cookie: string; name: string; id: string }

beforeAll(async () => {
  app = await testApp()
  await taxonomy(app.payload)
  admin = await consoleCookie(app, ADMIN.email, ADMIN.password)
  const role = await app.payload.create({ collection: 'roles', data: { name: 'stale-editors', permissions: ['tag.manage', 'catalog.manage', 'content.moderate', 'content.approve'] }, overrideAccess: true })
  const user = await createUser(app, [String(role.id)])
  editor = { cookie: await consoleCookie(app, user.email, user.password), name: user.username, id: user.id }
}, 120_000)

/** A console save, as the edit form sends it: the document with the version it was read at. */
const save = (cookie: string, path: string, body: Record<string, unknown>) => {
  const form = `--x\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n${JSON.stringify(body)}\r\n--x--\r\n`
  return app.request('PATCH', path, { rawBody: form, headers: { cookie, 'content-type': 'multipart/form-data; boundary=x' } })
}
const read = async (path: string) => (await app.request('GET', `${path}?depth=0`, { headers: { cookie: admin } })).body

describe('a console save read at an older version', () => {
  it('is refused (409) naming who changed it and when; the other’s change stays', async () => {
    const topic = await facetId(app.payload, 'topic')
    const tag = await app.payload.create({ collection: 'tags', data: { slug: 'stale-tag', label: 'Stale', facet: topic }, overrideAccess: true })
    const opened = await read(`/tags/${tag.id}`)
    // The editor saves first (from the same version): accepted, and recorded as theirs.
    const first = await save(editor.cookie, `/tags/${tag.id}`, { ...opened, label: 'Theirs' })
    expect(first.status, first.text).toBe(200)
    expect((await read(`/tags/${tag.id}`)).editedBy).toBe(editor.id)
    // The admin saves what they read before it: refused, nothing changed.
    const late = await save(admin, `/tags/${tag.id}`, { ...opened, label: 'Mine' })
    expect(late.status, late.text).toBe(409)
    expect(late.body.errors[0].message).toContain(`${editor.name} changed this tag at`)
    expect(late.body.errors[0].message).toContain('Reload it')
    expect(late.body.errors[0].data).toMatchObject({ code: 'document.changed', changedBy: { id: editor.id, name: editor.name }, changedAt: expect.any(String) })
    expect((await read(`/tags/${tag.id}`)).label).toBe('Theirs')
    // Read again, the same change goes through.
    const again = await save(admin, `/tags/${tag.id}`, { ...(await read(`/tags/${tag.id}`)), label: 'Mine' })
    expect(again.status, again.text).toBe(200)
    expect((await read(`/tags/${tag.id}`)).label).toBe('Mine')
  })

  it('an item approved after it was opened: the save names the moderator who approved it', async () => {
    const item = await content(app.payload, { slug: 'stale-item', status: 'pending', approvedAt: null })
    const opened = await read(`/content/${item.id}`)
    expect((await app.request('POST', `/content/moderation/${item.id}/approve`, { headers: { cookie: editor.cookie } })).status).toBe(200)
    const late = await save(admin, `/content/${item.id}`, { title: 'An edit of what was pending', updatedAt: opened.updatedAt })
    expect(late.status, late.text).toBe(409)
    expect(late.body.errors[0].message).toContain(`${editor.name} changed this item`)
    expect((await read(`/content/${item.id}`)).title).not.toBe('An edit of what was pending')
  })

  it('the branding page too (once it has been saved: before that it has no version)', async () => {
    expect((await app.request('POST', '/globals/branding', { headers: { cookie: admin }, body: { tagline: 'First' } })).status).toBe(200)
    const opened = (await app.request('GET', '/globals/branding?depth=0', { headers: { cookie: admin } })).body
    expect(opened.updatedAt).toEqual(expect.any(String))
    expect((await app.request('POST', '/globals/branding', { headers: { cookie: editor.cookie }, body: { ...opened, tagline: 'Theirs' } })).status).toBe(200)
    const late = await app.request('POST', '/globals/branding', { headers: { cookie: admin }, body: { ...opened, tagline: 'Mine' } })
    expect(late.status, late.text).toBe(409)
    expect(((await app.request('GET', '/globals/branding?depth=0', { headers: { cookie: admin } })).body).tagline).toBe('Theirs')
  })

  it('a write carrying no version (a bulk edit, the API) is not held to one; the service’s writes name no console editor', async () => {
    const topic = await facetId(app.payload, 'topic')
    const tag = await app.payload.create({ collection: 'tags', data: { slug: 'unversioned', label: 'Unversioned', facet: topic }, overrideAccess: true })
    expect((await save(editor.cookie, `/tags/${tag.id}`, { label: 'By the editor' })).status).toBe(200)
    expect((await read(`/tags/${tag.id}`)).editedBy).toBe(editor.id)
    const token = (await login(app, ADMIN.email, ADMIN.password)).accessToken
    expect((await app.request('PATCH', '/v1/tags/unversioned', { token, body: { label: 'By the API' } })).status).toBe(200)
    expect((await read(`/tags/${tag.id}`)).editedBy ?? null).toBeNull()
    // A client cannot name an editor.
    expect((await save(editor.cookie, `/tags/${tag.id}`, { label: 'Forged', editedBy: 'aaaaaaaaaaaaaaaaaaaaaaaa' })).status).toBe(200)
    expect((await read(`/tags/${tag.id}`)).editedBy).toBe(editor.id)
  })
})
