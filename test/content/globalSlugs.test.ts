/**
 * Slugs are globally unique for tags, content and surfaces (the spec's Slugs section), on every
 * route: a submission, a tag, a surface, a rename or a console edit that takes a slug another
 * entity holds is 409 `slug.conflict` with `details: { slug, entity }` naming the holder, and
 * changes nothing; a default derived from a title or label skips to the next free `-2`. Racing
 * writers of one slug through different collections: exactly one wins (the claims' unique
 * index, src/services/slugClaims.ts). The claims table holds each held slug once, with its holder.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { ADMIN, consoleCookie, createUser, login } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let admin: string
let member: string
let cookie: string
let topicId: string

const surface = (slug: string) => ({ slug, label: slug, routePrefix: `/${slug}`, browseMode: 'grid', accentColor: '#2563eb' })

beforeAll(async () => {
  app = await testApp()
  admin = (await login(app, ADMIN.email, ADMIN.password)).accessToken
  const m = await createUser(app)
  member = (await login(app, m.email, m.password)).accessToken
  cookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
  topicId = String((await app.payload.find({ collection: 'facets', where: { key: { equals: 'topic' } }, overrideAccess: true })).docs[0]!.id)
  expect((await app.request('POST', '/v1/tags', { token: admin, body: { label: 'Academic', facet: 'topic', slug: 'academic' } })).status).toBe(201)
  expect((await app.request('POST', '/v1/catalog/surfaces', { token: admin, body: surface('learn') })).status).toBe(201)
  const item = await app.request('POST', '/v1/content/submit', { token: member, body: { title: 'Taken item', url: 'https://example.com/taken-item', slug: 'taken-item' } })
  expect(item.status).toBe(201)
}, 120_000)

/** Who holds the slug, by the claims table and by the three collections themselves. */
async function holders(slug: string) {
  const where = { slug: { equals: slug } }
  const count = async (collection: 'content' | 'tags' | 'surfaces' | 'slug-claims') =>
    (await app.payload.count({ collection, where, overrideAccess: true })).totalDocs
  return { content: await count('content'), tags: await count('tags'), surfaces: await count('surfaces'), claims: await count('slug-claims') }
}

const conflict = (slug: string, entity: string) => ({ success: false, error: { code: 'slug.conflict', details: { slug, entity } } })

describe('one slug, one holder, on every route of the API', () => {
  it.each([
    ['academic', 'tag'],
    ['learn', 'surface'],
    ['taken-item', 'content'],
  ])('a submission with the slug %s: 409 naming the %s', async (slug, entity) => {
    const answer = await app.request('POST', '/v1/content/submit', { token: member, body: { title: 'Mine', url: `https://example.com/mine-${slug}`, slug } })
    expect(answer.status).toBe(409)
    expect(answer.body).toMatchObject(conflict(slug, entity))
  })

  it('a submission whose title derives a held slug takes the next free one', async () => {
    const answer = await app.request('POST', '/v1/content/submit', { token: member, body: { title: 'Academic', url: 'https://example.com/academic-title' } })
    expect(answer.status).toBe(201)
    expect(answer.body.data.slug).toBe('academic-2')
    expect(await holders('academic-2')).toEqual({ content: 1, tags: 0, surfaces: 0, claims: 1 })
  })

  it.each([
    ['taken-item', 'content'],
    ['learn', 'surface'],
  ])('a tag with the slug %s: 409 naming the %s, no tag made', async (slug, entity) => {
    const answer = await app.request('POST', '/v1/tags', { token: admin, body: { label: 'Again', facet: 'topic', slug } })
    expect(answer.status).toBe(409)
    expect(answer.body).toMatchObject(conflict(slug, entity))
    expect((await holders(slug)).tags).toBe(0)
  })

  it('a tag whose label derives a held slug takes the next free one', async () => {
    const answer = await app.request('POST', '/v1/tags', { token: admin, body: { label: 'Learn', facet: 'topic' } })
    expect(answer.status).toBe(201)
    expect(answer.body.data.slug).toBe('learn-2')
  })

  it.each([
    ['academic', 'tag'],
    ['taken-item', 'content'],
  ])('a surface with the slug %s: 409 naming the %s', async (slug, entity) => {
    const answer = await app.request('POST', '/v1/catalog/surfaces', { token: admin, body: surface(slug) })
    expect(answer.status).toBe(409)
    expect(answer.body).toMatchObject(conflict(slug, entity))
    expect((await holders(slug)).surfaces).toBe(0)
  })

  it('a tag renamed to a slug an item or a surface holds: 409 naming it, nothing moves', async () => {
    for (const [slug, entity] of [['taken-item', 'content'], ['learn', 'surface']] as const) {
      const answer = await app.request('POST', '/v1/tags/academic/rename', { token: admin, body: { newSlug: slug } })
      expect(answer.status).toBe(409)
      expect(answer.body).toMatchObject(conflict(slug, entity))
    }
    expect(await holders('academic')).toEqual({ content: 0, tags: 1, surfaces: 0, claims: 1 })
  })

  it('a surface renamed to a tag’s slug: 409 naming the tag', async () => {
    const answer = await app.request('POST', '/v1/catalog/surfaces/learn/rename', { token: admin, body: { newSlug: 'academic' } })
    expect(answer.status).toBe(409)
    expect(answer.body).toMatchObject(conflict('academic', 'tag'))
    expect(await holders('learn')).toEqual({ content: 0, tags: 0, surfaces: 1, claims: 1 })
  })

  it('a rename frees the old slug: another entity may take it', async () => {
    expect((await app.request('POST', '/v1/tags', { token: admin, body: { label: 'Old name', facet: 'topic', slug: 'old-name' } })).status).toBe(201)
    expect((await app.request('POST', '/v1/tags/old-name/rename', { token: admin, body: { newSlug: 'new-name' } })).status).toBe(200)
    expect(await holders('new-name')).toEqual({ content: 0, tags: 1, surfaces: 0, claims: 1 })
    const item = await app.request('POST', '/v1/content/submit', { token: member, body: { title: 'Old name', url: 'https://example.com/old-name', slug: 'old-name' } })
    expect(item.status).toBe(201)
    expect(await holders('old-name')).toEqual({ content: 1, tags: 0, surfaces: 0, claims: 1 })
    expect((await app.request('POST', '/v1/catalog/surfaces/learn/rename', { token: admin, body: { newSlug: 'study' } })).status).toBe(200)
    expect((await app.request('POST', '/v1/tags', { token: admin, body: { label: 'Learn', facet: 'topic', slug: 'learn' } })).status).toBe(201)
    expect(await holders('study')).toEqual({ content: 0, tags: 0, surfaces: 1, claims: 1 })
  })
})

describe("the console's REST", () => {
  const rest = (method: string, path: string, body: unknown) => app.request(method, path, { body, headers: { cookie } })

  it('a tag created with an item’s slug: 409 slug.conflict naming the content, no tag', async () => {
    const answer = await rest('POST', '/tags', { label: 'Console', slug: 'taken-item', facet: topicId })
    expect(answer.status).toBe(409)
    expect(answer.body.errors[0]).toMatchObject({
      message: 'slug.conflict: The slug "taken-item" is already in use by a content.',
      data: { code: 'slug.conflict', slug: 'taken-item', entity: 'content' },
    })
    expect((await holders('taken-item')).tags).toBe(0)
  })

  it('an item’s slug edited to a tag’s: 409, the item keeps its slug and its claim', async () => {
    const item = (await app.payload.find({ collection: 'content', where: { slug: { equals: 'taken-item' } }, overrideAccess: true })).docs[0]!
    const answer = await rest('PATCH', `/content/${item.id}`, { slug: 'academic' })
    expect(answer.status).toBe(409)
    expect(answer.body.errors[0]).toMatchObject({ data: { code: 'slug.conflict', slug: 'academic', entity: 'tag' } })
    expect(await holders('taken-item')).toEqual({ content: 1, tags: 0, surfaces: 0, claims: 1 })
    expect(await holders('academic')).toEqual({ content: 0, tags: 1, surfaces: 0, claims: 1 })
  })

  it('an item’s slug edited to a free one: the claim follows', async () => {
    const item = (await app.payload.find({ collection: 'content', where: { slug: { equals: 'academic-2' } }, overrideAccess: true })).docs[0]!
    expect((await rest('PATCH', `/content/${item.id}`, { slug: 'academic-edited' })).status).toBe(200)
    expect(await holders('academic-2')).toEqual({ content: 0, tags: 0, surfaces: 0, claims: 0 })
    expect(await holders('academic-edited')).toEqual({ content: 1, tags: 0, surfaces: 0, claims: 1 })
  })
})

describe('races', () => {
  it('a tag, an item and a surface created at once with one slug: exactly one wins, the others 409', async () => {
    for (let round = 0; round < 8; round++) {
      const slug = `race-${round}`
      const answers = await Promise.all([
        app.request('POST', '/v1/tags', { token: admin, body: { label: slug, facet: 'topic', slug } }),
        app.request('POST', '/v1/content/submit', { token: member, body: { title: slug, url: `https://example.com/${slug}`, slug } }),
        app.request('POST', '/v1/catalog/surfaces', { token: admin, body: surface(slug) }),
      ])
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409])
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('slug.conflict')
      const held = await holders(slug)
      expect(held.content + held.tags + held.surfaces).toBe(1)
      expect(held.claims).toBe(1)
    }
  })
})
