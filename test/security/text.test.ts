/**
 * Text limits and text hygiene (issue 9, findings 6, 8 and 9): every limit counts Unicode
 * code points on both layers (API schemas and collection validation), control characters
 * other than tab and newline are refused rather than stored or truncated, and validation
 * details never echo more than 200 characters of a value.
 */
import { describe, expect, it } from 'vitest'

import { ApiError, fromCollectionValidation } from '../../src/platform/errors'
import { adminSession } from '../auth/helpers'
import { taxonomy } from '../content/helpers'
import { type TestApp, testApp } from '../support/app'

const EMOJI = '😀' // one code point, two UTF-16 units

let ready: Promise<{ app: TestApp; token: string }> | undefined
function setup() {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    return { app, token: (await adminSession(app)).accessToken }
  })()
  return ready
}

let n = 0
const uniqueUrl = () => `https://example.com/text-${++n}`

async function storedContent(app: TestApp, slug: string) {
  const res = await app.payload.find({ collection: 'content', where: { slug: { equals: slug } }, overrideAccess: true })
  return res.docs[0] as Record<string, any> | undefined
}

async function storedTag(app: TestApp, slug: string) {
  const res = await app.payload.find({ collection: 'tags', where: { slug: { equals: slug } }, overrideAccess: true })
  return res.docs[0] as Record<string, any> | undefined
}

const contentCount = async (app: TestApp) => (await app.payload.count({ collection: 'content', overrideAccess: true })).totalDocs

describe('one length semantics: code points, on the API and in the collections', () => {
  it('tags: a label of 61 emoji (122 UTF-16 units) is within the 120 limit; 121 emoji is not', async () => {
    const { app, token } = await setup()
    const label = EMOJI.repeat(61)
    const created = await app.request('POST', '/v1/tags', { token, body: { label, facet: 'topic', slug: 'emoji-tag' } })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.data.label).toBe(label)
    expect((await storedTag(app, 'emoji-tag'))?.label).toBe(label)

    const edited = EMOJI.repeat(120)
    const patched = await app.request('PATCH', '/v1/tags/emoji-tag', { token, body: { label: edited } })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    expect((await storedTag(app, 'emoji-tag'))?.label).toBe(edited)

    const tooLong = await app.request('POST', '/v1/tags', { token, body: { label: EMOJI.repeat(121), facet: 'topic', slug: 'emoji-long' } })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error.code).toBe('validation.failed')
    expect(tooLong.body.error.details).toEqual([expect.objectContaining({ field: 'label', constraint: 'max' })])
    expect(await storedTag(app, 'emoji-long')).toBeUndefined()

    const patchTooLong = await app.request('PATCH', '/v1/tags/emoji-tag', { token, body: { label: EMOJI.repeat(121) } })
    expect(patchTooLong.status).toBe(400)
    expect((await storedTag(app, 'emoji-tag'))?.label).toBe(edited)
  })

  it('taxonomy writes: a surface and a group labelled with 61 emoji are created; 121 emoji is 400', async () => {
    const { app, token } = await setup()
    const label = EMOJI.repeat(61)
    const surface = await app.request('POST', '/v1/catalog/surfaces', {
      token,
      body: { slug: 'emoji-surface', label, routePrefix: '/emoji', browseMode: 'grid', accentColor: '#123456' },
    })
    expect(surface.status, JSON.stringify(surface.body)).toBe(201)
    const group = await app.request('POST', '/v1/catalog/surfaces/emoji-surface/groups', {
      token,
      body: { slug: 'emoji-group', label, color: '#654321' },
    })
    expect(group.status, JSON.stringify(group.body)).toBe(201)
    const stored = await app.payload.find({ collection: 'groups', where: { slug: { equals: 'emoji-group' } }, overrideAccess: true })
    expect(stored.docs[0]?.label).toBe(label)

    const tooLong = await app.request('POST', '/v1/catalog/surfaces/emoji-surface/groups', {
      token,
      body: { slug: 'emoji-group-2', label: EMOJI.repeat(121), color: '#654321' },
    })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error.details).toEqual([expect.objectContaining({ field: 'label', constraint: 'max' })])
  })

  it('submit: a title of 101 emoji and a description of 1,001 emoji are accepted; 201 and 2,001 are not', async () => {
    const { app, token } = await setup()
    const title = EMOJI.repeat(101)
    const description = EMOJI.repeat(1001)
    const ok = await app.request('POST', '/v1/content/submit', { token, body: { title, url: uniqueUrl(), description, slug: 'emoji-item' } })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    const stored = await storedContent(app, 'emoji-item')
    expect(stored?.title).toBe(title)
    expect(stored?.description).toBe(description)

    const atLimit = await app.request('POST', '/v1/content/submit', {
      token,
      body: { title: EMOJI.repeat(200), url: uniqueUrl(), description: EMOJI.repeat(2000), slug: 'emoji-item-max' },
    })
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(201)

    const before = await contentCount(app)
    const longTitle = await app.request('POST', '/v1/content/submit', { token, body: { title: EMOJI.repeat(201), url: uniqueUrl() } })
    expect(longTitle.status).toBe(400)
    expect(longTitle.body.error.details).toEqual([expect.objectContaining({ field: 'title', constraint: 'max' })])
    const longDescription = await app.request('POST', '/v1/content/submit', {
      token,
      body: { title: 'Long description', url: uniqueUrl(), description: EMOJI.repeat(2001) },
    })
    expect(longDescription.status).toBe(400)
    expect(longDescription.body.error.details).toEqual([expect.objectContaining({ field: 'description', constraint: 'max' })])
    expect(await contentCount(app)).toBe(before)
  })

  it('the collections count the same way (console and local API)', async () => {
    const { app } = await setup()
    const facet = (await app.payload.find({ collection: 'facets', where: { key: { equals: 'topic' } }, overrideAccess: true })).docs[0]!.id
    const tag = await app.payload.create({ collection: 'tags', data: { slug: 'local-emoji', label: EMOJI.repeat(120), facet }, overrideAccess: true })
    expect(tag.label).toBe(EMOJI.repeat(120))
    await expect(
      app.payload.create({ collection: 'tags', data: { slug: 'local-emoji-2', label: EMOJI.repeat(121), facet }, overrideAccess: true }),
    ).rejects.toMatchObject({ name: 'ValidationError' })
  })
})

describe('a refusal by the collection layer', () => {
  it('maps to 400 validation.failed with the field and constraint, never internal.error', async () => {
    const { app } = await setup()
    const facet = (await app.payload.find({ collection: 'facets', where: { key: { equals: 'topic' } }, overrideAccess: true })).docs[0]!.id
    const refused = await app.payload
      .create({ collection: 'tags', data: { slug: 'refused-tag', label: `x${'\u0000'}`, facet }, overrideAccess: true })
      .then(() => undefined, (err: unknown) => err)
    const mapped = fromCollectionValidation(refused)
    expect(mapped).toBeInstanceOf(ApiError)
    expect(mapped).toMatchObject({ status: 400, code: 'validation.failed', details: [{ field: 'label', constraint: 'control_characters' }] })
    expect(fromCollectionValidation(new Error('boom'))).toBeUndefined()
  })
})

describe('control characters', () => {
  const CONTROLS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\r', '\u001b', '\u007f', '\u0085', '\u009b']

  it('a NUL byte in the title, url or description of a submission is 400 control_characters and nothing is stored', async () => {
    const { app, token } = await setup()
    const before = await contentCount(app)
    for (const [field, body] of [
      ['title', { title: 'nul\u0000byte title', url: uniqueUrl() }],
      ['url', { title: 'nul url', url: 'https://example.com/a\u0000b' }],
      ['description', { title: 'nul description', url: uniqueUrl(), description: 'before\u0000after' }],
    ] as const) {
      const res = await app.request('POST', '/v1/content/submit', { token, body })
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(400)
      expect(res.body.error.code).toBe('validation.failed')
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field, constraint: 'control_characters' }))
    }
    expect(await contentCount(app)).toBe(before)
    expect(await storedContent(app, 'nul')).toBeUndefined()
    expect(await storedContent(app, 'nul-byte-title')).toBeUndefined()
  })

  it('every other control character is refused too, in every text field', async () => {
    const { app, token } = await setup()
    for (const c of CONTROLS) {
      const title = await app.request('POST', '/v1/content/submit', { token, body: { title: `a${c}b`, url: uniqueUrl() } })
      expect(title.status, JSON.stringify(c)).toBe(400)
      expect(title.body.error.details).toContainEqual(expect.objectContaining({ field: 'title', constraint: 'control_characters' }))
    }
    const probes: [string, string, unknown, string][] = [
      ['POST', '/v1/tags', { label: 'tab\u0007bell', facet: 'topic', slug: 'bell' }, 'label'],
      ['PATCH', '/v1/tags/javascript', { label: 'x\u0000y' }, 'label'],
      ['POST', '/v1/catalog/platforms', { slug: 'ctl', label: 'a\u001fb', color: '#000000' }, 'label'],
      ['POST', '/v1/slug/suggest', { value: 'a\u0000b', entity: 'content' }, 'value'],
      ['POST', '/v1/roles', { name: 'ctl\u0000role', permissions: [] }, 'name'],
      ['POST', '/v1/users', { email: 'ctl@example.com', username: 'ctl\u0000user', password: 'a-long-password-1' }, 'username'],
    ]
    for (const [method, path, body, field] of probes) {
      const res = await app.request(method, path, { token, body })
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(400)
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field, constraint: 'control_characters' }))
    }
    const tagQuery = await app.request('GET', `/v1/tags?q=${encodeURIComponent('ja\u0000va')}`)
    expect(tagQuery.status).toBe(400)
    expect(tagQuery.body.error.details).toContainEqual(expect.objectContaining({ field: 'q', constraint: 'control_characters' }))
    const contentQuery = await app.request('GET', `/v1/content?q=${encodeURIComponent('ja\u0000va')}`)
    expect(contentQuery.status).toBe(400)
    expect(contentQuery.body.error.details).toContainEqual(expect.objectContaining({ field: 'q', constraint: 'control_characters' }))
    expect(await storedTag(app, 'bell')).toBeUndefined()
    expect((await storedTag(app, 'javascript'))?.label).toBe('JavaScript')
  })

  it('the rejection reason is checked too', async () => {
    const { app, token } = await setup()
    const submitted = await app.request('POST', '/v1/content/submit', { token, body: { title: 'To reject', url: uniqueUrl(), slug: 'to-reject' } })
    expect(submitted.status).toBe(201)
    const res = await app.request('POST', '/v1/content/to-reject/reject', { token, body: { reason: 'spam\u0000' } })
    expect(res.status).toBe(400)
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: 'reason', constraint: 'control_characters' }))
    expect((await storedContent(app, 'to-reject'))?.status).toBe('pending')
  })

  it('tab and newline are accepted and stored exactly', async () => {
    const { app, token } = await setup()
    const description = 'line one\nline two\n\tindented'
    const res = await app.request('POST', '/v1/content/submit', { token, body: { title: 'Tabs\tand lines', url: uniqueUrl(), description, slug: 'tabs-lines' } })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const stored = await storedContent(app, 'tabs-lines')
    expect(stored?.description).toBe(description)
    expect(stored?.title).toBe('Tabs\tand lines')
  })

  it('the collections refuse them as well (console and local API)', async () => {
    const { app } = await setup()
    await expect(
      app.payload.create({
        collection: 'content',
        data: { slug: 'local-nul', title: 'nul\u0000title', url: uniqueUrl(), status: 'pending' },
        overrideAccess: true,
      }),
    ).rejects.toMatchObject({ name: 'ValidationError' })
    expect(await storedContent(app, 'local-nul')).toBeUndefined()
  })
})

describe('echoed values', () => {
  it('a value of thousands of characters comes back cut to at most 200 characters', async () => {
    const { app, token } = await setup()
    // Within each route's body limit (its largest declared body, src/edge/bodyBound: the slug
    // suggestion's ~6 KiB, a submission's ~92 KiB): a larger body is refused whole (413) unread.
    const huge = 'a'.repeat(5_000)
    const slug = await app.request('POST', '/v1/slug/suggest', { body: { value: huge, entity: 'content' } })
    expect(slug.status).toBe(400)
    const [problem] = slug.body.error.details
    expect(problem).toMatchObject({ field: 'value', constraint: 'max' })
    expect(typeof problem.value).toBe('string')
    expect(problem.value.length).toBeGreaterThan(0)
    expect(problem.value.length).toBeLessThanOrEqual(200)
    expect(slug.text.length).toBeLessThan(2000)

    const title = await app.request('POST', '/v1/content/submit', { token, body: { title: 'a'.repeat(60_000), url: uniqueUrl() } })
    expect(title.status).toBe(400)
    expect(title.body.error.details[0].value.length).toBeLessThanOrEqual(200)
    expect(title.text.length).toBeLessThan(2000)

    const key = await app.request('POST', '/v1/slug/suggest', { body: { value: 'ok', entity: 'content', [huge]: 1 } })
    expect(key.status).toBe(400)
    expect(key.text.length).toBeLessThan(2000)
  })
})
