import { SignJWT } from 'jose'
import type { Payload } from 'payload'
import { createUser, login } from '../auth/helpers'
import type { TestApp } from '../support/app'

/** An access token as the auth endpoints will issue it: HS256 with JWT_ACCESS_SECRET. */
export async function tokenFor(permissions: string[], sub = 'aaaaaaaaaaaaaaaaaaaaaaaa'): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ permissions })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .setJti(`jti-${Math.random().toString(36).slice(2)}`)
    .sign(new TextEncoder().encode(process.env.JWT_ACCESS_SECRET!))
}

type Doc = { id: string; [k: string]: any }

const rolesByPayload = new WeakMap<object, Map<string, Promise<string>>>()
let staff = 0

/**
 * A real user holding exactly `permissions` (through a role of its own) and an access token for
 * it. A write is judged by its caller's user record as it stands (decisions.md), so a token's
 * claims alone no longer make a caller: a test that needs "someone with only content.delete" needs
 * such a someone.
 */
export async function staffWith(payload: Payload, permissions: string[]): Promise<{ id: string; token: string }> {
  const key = [...new Set(permissions)].sort().join(',')
  let roles = rolesByPayload.get(payload)
  if (!roles) rolesByPayload.set(payload, (roles = new Map()))
  let role = roles.get(key)
  if (!role) {
    role = payload
      .create({ collection: 'roles', data: { name: `test-role-${roles.size + 1}-${process.pid}`, permissions: permissions as never }, overrideAccess: true })
      .then((r) => String(r.id))
    roles.set(key, role)
  }
  staff += 1
  const name = `staff${staff}x${process.pid}`
  const user = await payload.create({
    collection: 'users',
    data: { email: `${name}@example.com`, username: name, password: 'a-long-password-1', roles: [await role], isActive: true },
    overrideAccess: true,
  })
  return { id: String(user.id), token: await tokenFor(permissions, String(user.id)) }
}

export async function create(payload: Payload, collection: string, data: Record<string, unknown>): Promise<Doc> {
  return (await payload.create({ collection: collection as 'tags', data: data as never, overrideAccess: true })) as unknown as Doc
}

export async function facetId(payload: Payload, key: string): Promise<string> {
  const res = await payload.find({ collection: 'facets', where: { key: { equals: key } }, overrideAccess: true })
  return String(res.docs[0]!.id)
}

/** Two surfaces; `programming` exists in both (group slugs are unique per surface only). */
export async function taxonomy(payload: Payload) {
  const learn = await create(payload, 'surfaces', { slug: 'learn', label: 'Learn', routePrefix: '/learn', browseMode: 'grid', accentColor: '#2563eb', displayOrder: 1 })
  const discover = await create(payload, 'surfaces', { slug: 'discover', label: 'Discover', routePrefix: '/discover', browseMode: 'feed', accentColor: '#db2777', displayOrder: 0 })
  const programming = await create(payload, 'groups', { surface: learn.id, slug: 'programming', label: 'Programming', color: '#111111', displayOrder: 0 })
  const data = await create(payload, 'groups', { surface: learn.id, slug: 'data', label: 'Data', color: '#222222', displayOrder: 1 })
  const progDiscover = await create(payload, 'groups', { surface: discover.id, slug: 'programming', label: 'Programming (D)', color: '#333333', displayOrder: 0 })
  const web = await create(payload, 'channels', { group: programming.id, slug: 'web', label: 'Web', displayOrder: 0 })
  const systems = await create(payload, 'channels', { group: programming.id, slug: 'systems', label: 'Systems', displayOrder: 1 })
  const dataWeb = await create(payload, 'channels', { group: data.id, slug: 'web', label: 'Data web', displayOrder: 0 })
  const youtube = await create(payload, 'platforms', { slug: 'youtube', label: 'YouTube', color: '#ff0000', displayOrder: 0 })
  const blog = await create(payload, 'platforms', { slug: 'blog', label: 'Blog', color: '#f59e0b', displayOrder: 1 })
  const podcast = await create(payload, 'platforms', { slug: 'podcast', label: 'Podcast', color: '#8b5cf6', displayOrder: 2 })
  const topic = await facetId(payload, 'topic')
  const format = await facetId(payload, 'format')
  for (const [slug, label, facet] of [
    ['javascript', 'JavaScript', topic],
    ['sql', 'SQL', topic],
    ['tutorial', 'Tutorial', format],
    ['talk', 'Talk', format],
  ] as const) {
    await create(payload, 'tags', { slug, label, facet })
  }
  return { learn, discover, programming, data, progDiscover, web, systems, dataWeb, youtube, blog, podcast }
}

let n = 0
export async function content(payload: Payload, data: Record<string, unknown>): Promise<Doc> {
  n += 1
  return create(payload, 'content', {
    slug: `item-${n}`,
    title: `Item ${n}`,
    // A host of its own: tests submit example.com URLs, and a URL is stored once (duplicate URLs).
    url: `https://fixtures.example.com/item/${n}`,
    status: 'approved',
    approvedAt: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(),
    tagSlugs: [],
    ...data,
  })
}

export const slugs = (body: any): string[] => body.data.map((d: any) => d.slug)

/** Two signed-in members and two staff, each holding exactly its permissions: moderate + approve; delete. */
export type Cast = { alice: { id: string; token: string }; bob: { id: string; token: string }; moderator: string; deleter: string; adminId: string }

export async function twoMembersAndStaff(app: TestApp): Promise<Cast> {
  const a = await createUser(app)
  const b = await createUser(app)
  const admin = (await app.payload.find({ collection: 'users', where: { email: { equals: 'admin@example.com' } }, overrideAccess: true })).docs[0]!
  return {
    alice: { id: String(a.id), token: (await login(app, a.email, a.password)).accessToken },
    bob: { id: String(b.id), token: (await login(app, b.email, b.password)).accessToken },
    moderator: (await staffWith(app.payload, ['content.moderate', 'content.approve'])).token,
    deleter: (await staffWith(app.payload, ['content.delete'])).token,
    adminId: String(admin.id),
  }
}
