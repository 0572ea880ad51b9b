import { describe, expect, it } from 'vitest'

import { renameTag } from '../../src/services/tagWrites'
import { testApp } from '../support/app'
import { content, facetId, staffWith, taxonomy, tokenFor } from '../content/helpers'

let ready: Promise<{ app: Awaited<ReturnType<typeof testApp>>; editor: string; actorId: string }> | undefined

/** One taxonomy per file (tests add their own content with distinct slugs). */
function setup() {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    const admin = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
    return { app, actorId: String(admin.id), editor: await tokenFor(['tag.manage'], String(admin.id)) }
  })()
  return ready
}

const tagsOf = async (app: Awaited<ReturnType<typeof testApp>>, slug: string) => {
  const res = await app.payload.find({ collection: 'content', where: { slug: { equals: slug } }, overrideAccess: true })
  return res.docs[0]!.tagSlugs
}

describe('tag writes', () => {
  it('creates, updates and guards tags', async () => {
    const { app, editor, actorId } = await setup()
    const created = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'Rust Lang', facet: 'topic' } })
    expect(created.status).toBe(201)
    expect(created.body.data).toEqual({ slug: 'rust-lang', label: 'Rust Lang', facet: 'topic', usageCount: 0 })

    const dup = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'Other', facet: 'topic', slug: 'rust-lang' } })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toMatchObject({ code: 'slug.conflict', details: { slug: 'rust-lang', entity: 'tag' } })

    const reserved = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'x', facet: 'topic', slug: 'admin' } })
    expect(reserved.status).toBe(409)
    expect(reserved.body.error.code).toBe('slug.reserved')

    const badFacet = await app.request('POST', '/v1/tags', { token: editor, body: { label: 'x', facet: 'nope' } })
    expect(badFacet.status).toBe(400)
    expect(badFacet.body.error.details).toEqual([{ field: 'facet', constraint: 'exists', value: 'nope' }])

    const patched = await app.request('PATCH', '/v1/tags/rust-lang', { token: editor, body: { label: 'Rust', facet: 'format' } })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ slug: 'rust-lang', label: 'Rust', facet: 'format' })

    const missing = await app.request('PATCH', '/v1/tags/ghost', { token: editor, body: { label: 'x' } })
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('tag.not_found')

    const anon = await app.request('POST', '/v1/tags', { body: { label: 'x', facet: 'topic' } })
    expect(anon.status).toBe(401)
    const member = await app.request('POST', '/v1/tags', { token: (await staffWith(app.payload, ['content.submit'])).token, body: { label: 'x', facet: 'topic' } })
    expect(member.status).toBe(403)
    expect(member.body.error.code).toBe('auth.forbidden')
  })

  it('renames a tag, carries every content item along, writes the audit record and answers the new slug', async () => {
    const { app, editor, actorId } = await setup()
    await content(app.payload, { slug: 'r1', tagSlugs: ['sql', 'javascript', 'tutorial'] })
    await content(app.payload, { slug: 'r2', tagSlugs: ['javascript'] })
    await content(app.payload, { slug: 'r3', tagSlugs: ['sql'] })
    const catalogBefore = await app.request('GET', '/v1/catalog')

    const res = await app.request('POST', '/v1/tags/javascript/rename', { token: editor, body: { newSlug: 'js' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ slug: 'js', contentCount: 2 })

    expect(await tagsOf(app, 'r1')).toEqual(['sql', 'js', 'tutorial']) // position kept
    expect(await tagsOf(app, 'r2')).toEqual(['js'])
    expect(await tagsOf(app, 'r3')).toEqual(['sql'])
    expect((await app.request('GET', '/v1/tags/javascript')).status).toBe(404)
    expect((await app.request('GET', '/v1/tags/js')).body.data.usageCount).toBe(2)
    const list = await app.request('GET', '/v1/content?tags=js')
    expect(list.body.data.map((d: any) => d.slug).sort()).toEqual(['r1', 'r2'])

    const audit = await app.payload.find({ collection: 'tag-renames', overrideAccess: true })
    expect(audit.totalDocs).toBe(1)
    expect(audit.docs[0]).toMatchObject({ oldSlug: 'javascript', newSlug: 'js', contentCount: 2 })
    const { actor, at } = audit.docs[0]!
    expect(typeof actor === 'object' && actor !== null ? actor.id : actor).toBe(actorId)
    expect(new Date(at).getTime()).toBeGreaterThan(Date.now() - 60_000)

    const catalogAfter = await app.request('GET', '/v1/catalog', { headers: { 'If-None-Match': catalogBefore.headers.get('etag')! } })
    expect(catalogAfter.status).toBe(200)
    expect(catalogAfter.headers.get('etag')).not.toBe(catalogBefore.headers.get('etag'))
  })

  it('refuses merges, bad and reserved slugs, and unknown tags, changing nothing', async () => {
    const { app, editor } = await setup()
    await content(app.payload, { slug: 'm1', tagSlugs: ['sql'] })
    const auditsBefore = (await app.payload.count({ collection: 'tag-renames', overrideAccess: true })).totalDocs
    const merge = await app.request('POST', '/v1/tags/sql/rename', { token: editor, body: { newSlug: 'talk' } })
    expect(merge.status).toBe(409)
    expect(merge.body.error).toMatchObject({ code: 'slug.conflict', details: { slug: 'talk', entity: 'tag' } })
    const same = await app.request('POST', '/v1/tags/sql/rename', { token: editor, body: { newSlug: 'sql' } })
    expect(same.status).toBe(409)
    const bad = await app.request('POST', '/v1/tags/sql/rename', { token: editor, body: { newSlug: 'Not A Slug' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details).toEqual([{ field: 'newSlug', constraint: 'pattern', value: 'Not A Slug' }])
    const reserved = await app.request('POST', '/v1/tags/sql/rename', { token: editor, body: { newSlug: 'settings' } })
    expect(reserved.status).toBe(409)
    expect(reserved.body.error.code).toBe('slug.reserved')
    const ghost = await app.request('POST', '/v1/tags/ghost/rename', { token: editor, body: { newSlug: 'ghost-2' } })
    expect(ghost.status).toBe(404)
    expect(ghost.body.error.code).toBe('tag.not_found')
    expect(await tagsOf(app, 'm1')).toEqual(['sql'])
    expect((await app.payload.count({ collection: 'tag-renames', overrideAccess: true })).totalDocs).toBe(auditsBefore)
  })

  it('leaves tag, content and audit unchanged when the rename fails midway', async () => {
    const { app } = await setup()
    await content(app.payload, { slug: 'f1', tagSlugs: ['tutorial', 'talk'] })
    const auditsBefore = (await app.payload.count({ collection: 'tag-renames', overrideAccess: true })).totalDocs
    await expect(
      renameTag(app.payload, { slug: 'tutorial' }, 'how-to', {
        actorId: null,
        afterContentUpdate: () => {
          throw new Error('disk full')
        },
      }),
    ).rejects.toThrow('disk full')
    expect(await tagsOf(app, 'f1')).toEqual(['tutorial', 'talk'])
    expect((await app.request('GET', '/v1/tags/tutorial')).status).toBe(200)
    expect((await app.request('GET', '/v1/tags/how-to')).status).toBe(404)
    expect((await app.payload.count({ collection: 'tag-renames', overrideAccess: true })).totalDocs).toBe(auditsBefore)
    const facet = await facetId(app.payload, 'format')
    expect(facet).toMatch(/^[0-9a-f]{24}$/)
  })
})
