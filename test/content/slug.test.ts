import type { CollectionSlug, SelectField, Where } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from '../support/app'
import { Content } from '../../collections/Content'
import type { User } from '../../payload-types'
import type { Permission } from '../../src/auth/permissions'
import { ApiError } from '../../src/platform/errors'
import { assertSlug, suggestSlug } from '../../src/platform/slug'
import { create, taxonomy } from './helpers'

let app: TestApp
let t: Awaited<ReturnType<typeof taxonomy>>

beforeAll(async () => {
  app = await testApp()
  t = await taxonomy(app.payload)
})

const suggest = (body: unknown) => app.request('POST', '/v1/slug/suggest', { body })
const count = async (collection: CollectionSlug, where: Where = {}) =>
  (await app.payload.count({ collection, where, overrideAccess: true })).totalDocs

describe('POST /slug/suggest', () => {
  const cases: [string, string][] = [
    ['Hello, World!!', 'hello-world'],
    ['  --Leading and trailing--  ', 'leading-and-trailing'],
    ['a   b\t\nc', 'a-b-c'],
    ['C++ / Rust & Go: 2024 edition', 'c-rust-go-2024-edition'],
    ['Crème Brûlée à la carte', 'creme-brulee-a-la-carte'],
    ['ﬁne Ｆｕｌｌｗｉｄｔｈ', 'fine-fullwidth'],
    ['Straße Ørsted', 'stra-e-rsted'],
    ['日本語 title', 'title'],
    ['already-a-slug', 'already-a-slug'],
    ['x'.repeat(70), 'x'.repeat(64)],
    [`${'y'.repeat(63)} tail`, 'y'.repeat(63)],
  ]
  for (const [value, slug] of cases) {
    it(`suggests "${slug.length > 20 ? `${slug.slice(0, 8)}…(${slug.length})` : slug}" for ${JSON.stringify(value.slice(0, 30))}`, async () => {
      const res = await suggest({ value, entity: 'content' })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({ slug })
      expect(res.body.data.slug).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/)
    })
  }

  it('never returns a reserved slug (suffix -2) and does not check uniqueness', async () => {
    expect((await suggest({ value: 'Admin', entity: 'tag' })).body.data).toEqual({ slug: 'admin-2' })
    expect((await suggest({ value: 'Programming', entity: 'group' })).body.data).toEqual({ slug: 'programming' })
  })

  it('rejects values with nothing alphanumeric and malformed bodies with validation.failed', async () => {
    const empty = await suggest({ value: '!!! ---', entity: 'content' })
    expect(empty.status).toBe(400)
    expect(empty.body.error).toMatchObject({ code: 'validation.failed', details: [{ field: 'value', constraint: 'no_alphanumerics', value: '!!! ---' }] })
    const entity = await suggest({ value: 'ok', entity: 'planet' })
    expect(entity.body.error.details).toEqual([{ field: 'entity', constraint: 'enum', value: 'planet' }])
    const missing = await suggest({ entity: 'tag' })
    expect(missing.body.error.details).toEqual([{ field: 'value', constraint: 'required' }])
    const extra = await suggest({ value: 'ok', entity: 'tag', more: 1 })
    expect(extra.body.error.details).toEqual([{ field: 'more', constraint: 'unknown' }])
  })

  it('the pure function keeps the 64-character limit without a trailing hyphen', () => {
    expect(suggestSlug(`${'a'.repeat(64)}-b`)).toBe('a'.repeat(64))
    expect(suggestSlug('-'.repeat(10) + 'z')).toBe('z')
  })
})

describe('slug validation', () => {
  it('at the API boundary: pattern is 400 validation.failed, reserved is 409 slug.reserved', () => {
    const err = (v: unknown) => {
      try {
        assertSlug(v)
      } catch (e) {
        return e as ApiError
      }
      throw new Error('expected a failure')
    }
    for (const bad of ['', 'UPPER', '-lead', 'trail-', 'sp ace', 'a'.repeat(65), 'ünï']) {
      expect(err(bad)).toMatchObject({ status: 400, code: 'validation.failed', details: [{ field: 'slug', constraint: 'pattern', value: bad }] })
    }
    for (const reserved of ['new', 'edit', 'admin', 'api', 'auth', 'catalog', 'search', 'meta', 'tags', 'settings']) {
      expect(err(reserved)).toMatchObject({ status: 409, code: 'slug.reserved' })
    }
    expect(assertSlug('a')).toBe('a')
    expect(assertSlug('a'.repeat(64))).toBe('a'.repeat(64))
    expect(assertSlug('a-b-9')).toBe('a-b-9')
  })

  it('in Payload field validation for every slugged collection', async () => {
    const before = await count('surfaces')
    await expect(
      create(app.payload, 'surfaces', { slug: 'Bad Slug', label: 'x', routePrefix: '/x', accentColor: '#000000' }),
    ).rejects.toThrow(/slug/i)
    await expect(
      create(app.payload, 'surfaces', { slug: 'admin', label: 'x', routePrefix: '/x', accentColor: '#000000' }),
    ).rejects.toThrow(/slug/i)
    await expect(create(app.payload, 'tags', { slug: 'catalog', label: 'x', facet: t.programming.id })).rejects.toThrow()
    await expect(create(app.payload, 'platforms', { slug: 'UP', label: 'x', color: '#000000' })).rejects.toThrow()
    await expect(create(app.payload, 'content', { slug: 'new', title: 'x', url: 'https://e.com' })).rejects.toThrow()
    await expect(create(app.payload, 'content', { slug: 'fine', title: 'x', url: 'ftp://e.com' })).rejects.toThrow()
    await expect(create(app.payload, 'content', { slug: 'fine', title: 'x', url: 'https://e.com', tagSlugs: ['Bad Tag'] })).rejects.toThrow()
    expect(await count('surfaces')).toBe(before)
    expect(await count('content')).toBe(0)
  })
})

describe('slug uniqueness (unique indexes)', () => {
  it('group slugs are unique per surface, not globally', async () => {
    await expect(
      create(app.payload, 'groups', { surface: t.learn.id, slug: 'programming', label: 'Dup', color: '#000000' }),
    ).rejects.toThrow()
    expect(await count('groups', { slug: { equals: 'programming' } })).toBe(2) // learn + discover
    await create(app.payload, 'groups', { surface: t.discover.id, slug: 'data', label: 'Data (D)', color: '#000000' })
    expect(await count('groups', { slug: { equals: 'data' } })).toBe(2)
  })

  it('channel slugs are unique per group, not globally', async () => {
    await expect(create(app.payload, 'channels', { group: t.programming.id, slug: 'web', label: 'Dup' })).rejects.toThrow()
    expect(await count('channels', { slug: { equals: 'web' } })).toBe(2) // programming + data
    await create(app.payload, 'channels', { group: t.progDiscover.id, slug: 'web', label: 'Web (D)' })
    expect(await count('channels', { slug: { equals: 'web' } })).toBe(3)
  })

  it('tag, surface, platform and content slugs are globally unique', async () => {
    await expect(create(app.payload, 'tags', { slug: 'sql', label: 'Dup', facet: (await app.payload.find({ collection: 'facets', limit: 1, overrideAccess: true })).docs[0]!.id })).rejects.toThrow()
    await expect(create(app.payload, 'surfaces', { slug: 'learn', label: 'Dup', routePrefix: '/l', accentColor: '#000000' })).rejects.toThrow()
    await expect(create(app.payload, 'platforms', { slug: 'blog', label: 'Dup', color: '#000000' })).rejects.toThrow()
    await create(app.payload, 'content', { slug: 'only-once', title: 'x', url: 'https://e.com' })
    await expect(create(app.payload, 'content', { slug: 'only-once', title: 'y', url: 'https://e.com' })).rejects.toThrow()
    expect(await count('tags', { slug: { equals: 'sql' } })).toBe(1)
    expect(await count('content', { slug: { equals: 'only-once' } })).toBe(1)
  })

  it('a content channel must belong to its group', async () => {
    await expect(
      create(app.payload, 'content', { slug: 'mismatch', title: 'x', url: 'https://e.com', group: t.data.id, channel: t.web.id }),
    ).rejects.toThrow(/channel/i)
  })
})

describe('content collection rules', () => {
  it('content is never hard-deleted and its status is read-only in the admin', () => {
    expect((Content.access!.delete as () => boolean)()).toBe(false)
    const status = Content.fields.find((f): f is SelectField => f.type === 'select' && f.name === 'status')!
    expect(status.admin?.readOnly).toBe(true)
    expect(status.options).toEqual(['pending', 'approved', 'rejected'])
  })

  it("Payload's REST read of content needs content.moderate", async () => {
    const stamp = new Date().toISOString()
    const asUser = (permissions: Permission[]): User => ({
      id: 'u1',
      collection: 'users',
      email: 'u1@example.com',
      username: 'u1',
      isActive: true,
      roles: [{ id: 'r1', name: 'r1', permissions, createdAt: stamp, updatedAt: stamp }],
      createdAt: stamp,
      updatedAt: stamp,
    })
    await expect(app.payload.find({ collection: 'content', overrideAccess: false, user: asUser(['tag.manage']) })).rejects.toThrow()
    const ok = await app.payload.find({ collection: 'content', overrideAccess: false, user: asUser(['content.moderate']) })
    expect(ok.totalDocs).toBeGreaterThan(0)
  })
})
