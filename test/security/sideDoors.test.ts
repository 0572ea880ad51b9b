/**
 * The side-door table, by construction: every collection and global Payload serves through its
 * REST (Payload's own included: document locks, preferences, migrations, key-value store) ×
 * every operation (read, create, update, delete) × every caller (anonymous, the seeded roles,
 * and a role holding each single permission) → the answer expected, declared below and compared
 * with what Payload grants (its /api/access, computed by the same access functions that guard
 * each route). And every field of every collection is classified: who may write it through
 * REST. A collection, global or field that appears without an entry fails the test, so the
 * next side door cannot be added silently.
 *
 * Workflow fields ('workflow') are refused by hooks, whatever the caller (the behaviour is
 * pinned in consoleSideDoors.test.ts); 'derived' fields are computed on every write
 * (thumbnailUrl, urlKey); 'secret' fields never leave and are never written through REST.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { CONSOLE_PERMISSIONS, PERMISSIONS } from '../../src/auth/permissions'
import { createUser, freshIp } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

/** What a caller gets: Y everything, W only its own documents (a query constraint), - nothing. */
type Grant = 'Y' | 'W' | '-'
type Caller = { name: string; held: ReadonlySet<string>; cookie?: string }
type Rule = (c: Caller) => Grant

const nobody: Rule = () => '-'
const anyone: Rule = () => 'Y'
const has = (...all: string[]): Rule => (c) => (all.every((p) => c.held.has(p)) ? 'Y' : '-')
const console_ = (c: Caller) => CONSOLE_PERMISSIONS.some((p) => c.held.has(p))
const consoleUsers: Rule = (c) => (console_(c) ? 'Y' : '-')
const ownInConsole: Rule = (c) => (console_(c) ? 'W' : '-')
const either = (a: Rule, b: Rule): Rule => (c) => (a(c) === 'Y' || b(c) === 'Y' ? 'Y' : a(c) === 'W' || b(c) === 'W' ? 'W' : '-')

type Entry = { read: Rule; create: Rule; update: Rule; delete: Rule }
const taxonomy: Entry = { read: consoleUsers, create: has('catalog.manage'), update: has('catalog.manage'), delete: nobody }
const readOnly = (read: Rule): Entry => ({ read, create: nobody, update: nobody, delete: nobody })

const TABLE: Record<string, Entry> = {
  // Console users see people by name (a submitter, a lock's holder); roles and activity with user.manage (field access).
  users: { read: consoleUsers, create: has('user.manage'), update: has('user.manage'), delete: nobody },
  roles: { read: either(has('role.manage'), has('user.manage')), create: has('role.manage'), update: has('role.manage'), delete: has('role.manage') },
  'refresh-tokens': readOnly(nobody),
  facets: taxonomy,
  surfaces: taxonomy,
  groups: taxonomy,
  channels: taxonomy,
  platforms: taxonomy,
  media: { read: anyone, create: has('catalog.manage'), update: has('catalog.manage'), delete: has('catalog.manage') },
  tags: { read: consoleUsers, create: has('tag.manage'), update: has('tag.manage'), delete: nobody },
  content: { read: has('content.moderate'), create: has('content.moderate'), update: has('content.moderate'), delete: nobody },
  notifications: readOnly(has('user.manage')),
  'tag-renames': readOnly(has('tag.manage')),
  // The global slugs' claims: written only with their holders, never through REST.
  'slug-claims': readOnly(nobody),
  'moderation-events': readOnly(has('content.moderate')),
  'payload-kv': readOnly(nobody),
  'payload-locked-documents': { read: consoleUsers, create: consoleUsers, update: consoleUsers, delete: either(has(...PERMISSIONS), ownInConsole) },
  'payload-preferences': { read: ownInConsole, create: consoleUsers, update: ownInConsole, delete: ownInConsole },
  'payload-migrations': readOnly(nobody),
  'globals/branding': { read: consoleUsers, create: nobody, update: has('catalog.manage'), delete: nobody },
}

/** Who writes each field through REST: the document's writers, nobody (workflow, derived, secret, system). */
type FieldClass = 'writable' | 'workflow' | 'derived' | 'secret' | 'system'
const SYSTEM = { id: 'system', updatedAt: 'system', createdAt: 'system' } as const
/** The console edits these: its last editor, set by the edit guard, never by a client (collections/editGuard.ts). */
const EDITED = { editedBy: 'derived' } as const
const FIELDS: Record<string, Record<string, FieldClass>> = {
  users: {
    ...SYSTEM, username: 'writable', roles: 'writable', isActive: 'writable', email: 'writable',
    passwordHash: 'secret', resetPasswordToken: 'secret', resetPasswordExpiration: 'secret', salt: 'secret', hash: 'secret',
    resetPasswordRequestedAt: 'secret', sessions: 'secret', passwordChangedAt: 'secret',
  },
  roles: { ...SYSTEM, name: 'writable', description: 'writable', permissions: 'writable' },
  'refresh-tokens': {
    ...SYSTEM, userId: 'secret', familyId: 'secret', tokenHash: 'secret', expiresAt: 'secret', revokedAt: 'secret', revokedReason: 'secret',
    graceToken: 'secret', graceUntil: 'secret', createdUserAgent: 'secret', createdIp: 'secret',
  },
  facets: { ...SYSTEM, ...EDITED, key: 'writable', label: 'writable', color: 'writable', displayOrder: 'writable' },
  media: {
    ...SYSTEM, ...EDITED, alt: 'writable', url: 'derived', thumbnailURL: 'derived', filename: 'derived', mimeType: 'derived', filesize: 'derived',
    width: 'derived', height: 'derived', focalX: 'writable', focalY: 'writable',
  },
  surfaces: { ...SYSTEM, ...EDITED, slug: 'workflow', label: 'writable', routePrefix: 'writable', browseMode: 'writable', accentColor: 'writable', displayOrder: 'writable', isActive: 'workflow' },
  groups: { ...SYSTEM, ...EDITED, surface: 'writable', slug: 'workflow', label: 'writable', color: 'writable', displayOrder: 'writable', isActive: 'workflow' },
  channels: { ...SYSTEM, ...EDITED, group: 'writable', slug: 'workflow', label: 'writable', displayOrder: 'writable', isActive: 'workflow' },
  platforms: { ...SYSTEM, ...EDITED, slug: 'workflow', label: 'writable', color: 'writable', displayOrder: 'writable', isActive: 'workflow' },
  tags: { ...SYSTEM, ...EDITED, slug: 'workflow', label: 'writable', facet: 'writable' },
  content: {
    ...SYSTEM, ...EDITED, slug: 'writable', title: 'writable', description: 'writable', url: 'writable', urlKey: 'derived', urlKeyOrdinal: 'derived',
    tagSlugs: 'writable', group: 'writable', channel: 'writable', platform: 'writable', status: 'workflow', isActive: 'workflow',
    submittedBy: 'workflow', approvedAt: 'workflow', rejectionReason: 'workflow', thumbnail: 'writable', thumbnailUrl: 'derived',
  },
  notifications: { ...SYSTEM, user: 'system', kind: 'system', content: 'system', message: 'system', readAt: 'system' },
  'tag-renames': { ...SYSTEM, actor: 'system', oldSlug: 'system', newSlug: 'system', contentCount: 'system', at: 'system' },
  'slug-claims': { id: 'system', slug: 'derived', entity: 'derived', owner: 'derived' },
  'moderation-events': {
    ...SYSTEM, actor: 'system', action: 'system', targetCollection: 'system', targetId: 'system', targetSlug: 'system',
    stateBefore: 'system', stateAfter: 'system', reason: 'system', at: 'system',
  },
  'payload-kv': { key: 'system', data: 'system' },
  'payload-locked-documents': { updatedAt: 'system', createdAt: 'system', document: 'writable', globalSlug: 'writable', user: 'writable' },
  'payload-preferences': { updatedAt: 'system', createdAt: 'system', user: 'system', key: 'writable', value: 'writable' },
  'payload-migrations': { updatedAt: 'system', createdAt: 'system', name: 'system', batch: 'system' },
  branding: {
    updatedAt: 'system', createdAt: 'system', name: 'writable', tagline: 'writable', description: 'writable', logo: 'writable', logoUrl: 'writable', icon: 'writable',
    iconUrl: 'writable', primaryColor: 'writable', publicUrl: 'writable', submissionsOpen: 'writable', ...EDITED,
  },
}

let app: TestApp
const callers: Caller[] = []

/** A console session; none for a caller without a console permission (the console refuses it: 403). */
async function cookieOf(email: string, password: string): Promise<string | undefined> {
  const res = await app.request('POST', '/users/login', { body: { email, password }, headers: freshIp() })
  if (res.status === 403) return undefined
  expect(res.status, res.text).toBe(200)
  return `payload-token=${/payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`
}

async function callerWith(name: string, roleId: string, permissions: readonly string[]) {
  const user = await createUser(app, [roleId])
  const cookie = await cookieOf(user.email, user.password)
  // Refused by the console exactly when the caller holds no console permission.
  expect(cookie === undefined, name).toBe(!CONSOLE_PERMISSIONS.some((p) => permissions.includes(p)))
  callers.push({ name, held: new Set(permissions), cookie })
}

beforeAll(async () => {
  app = await testApp()
  callers.push({ name: 'anonymous', held: new Set() })
  for (const role of (await app.payload.find({ collection: 'roles', depth: 0, pagination: false })).docs) {
    await callerWith(String(role.name), String(role.id), role.permissions ?? [])
  }
  for (const permission of PERMISSIONS) {
    const role = await app.payload.create({ collection: 'roles', data: { name: `only-${permission}`, permissions: [permission] }, overrideAccess: true })
    await callerWith(`only ${permission}`, String(role.id), [permission])
  }
}, 120_000)

const served = () => [...app.config.collections.map((c) => c.slug), ...app.config.globals.map((g) => `globals/${g.slug}`)]

describe('the side-door table', () => {
  it('has an entry for every collection and global Payload serves, and none for one it does not', () => {
    expect(Object.keys(TABLE).sort()).toEqual(served().sort())
  })

  it('classifies every field of every collection and global, and no field that is gone', () => {
    for (const c of [...app.config.collections, ...app.config.globals]) {
      const names = c.flattenedFields.map((f) => f.name).sort()
      expect(Object.keys(FIELDS[c.slug] ?? {}).sort(), c.slug).toEqual(names)
    }
  })

  it('every caller × every collection × every operation: exactly what the table says', async () => {
    const mismatches: string[] = []
    for (const caller of callers) {
      const res = await app.request('GET', '/access', { headers: caller.cookie ? { cookie: caller.cookie } : {} })
      expect(res.status).toBe(200)
      for (const slug of served()) {
        const given = slug.startsWith('globals/') ? res.body.globals?.[slug.slice('globals/'.length)] : res.body.collections?.[slug]
        for (const op of ['read', 'create', 'update', 'delete'] as const) {
          const v = given?.[op]
          const actual: Grant = v === true ? 'Y' : v && typeof v === 'object' && v.permission ? (v.where ? 'W' : 'Y') : '-'
          const expected = TABLE[slug]![op](caller)
          if (actual !== expected) mismatches.push(`${caller.name} ${op} ${slug}: table ${expected}, Payload grants ${actual}`)
        }
      }
    }
    expect(mismatches).toEqual([])
  })

  it('the grants hold on the routes themselves: a denied read or write answers 401/403', async () => {
    const cataloguer = callers.find((c) => c.name === 'only catalog.manage')!
    for (const slug of ['payload-migrations', 'roles', 'content', 'refresh-tokens', 'payload-kv']) {
      const read = await app.request('GET', `/${slug}`, { headers: { cookie: cataloguer.cookie! } })
      expect([401, 403, 404].includes(read.status), `catalog.manage reads ${slug}: ${read.status}`).toBe(true)
    }
    // People by name, never who holds which roles or whether an account is active (user.manage's).
    const people = await app.request('GET', '/users?limit=50&depth=1', { headers: { cookie: cataloguer.cookie! } })
    expect(people.status).toBe(200)
    expect(people.body.docs.length).toBeGreaterThan(1)
    for (const doc of people.body.docs) {
      expect(Object.keys(doc).filter((k) => ['roles', 'isActive', 'sessions', 'passwordHash', 'passwordChangedAt', 'hash', 'salt'].includes(k))).toEqual([])
    }
    const moderator = callers.find((c) => c.name === 'moderator')!
    const migration = await app.request('POST', '/payload-migrations', { headers: { cookie: moderator.cookie! }, body: { name: 'forged', batch: 1 } })
    expect([403, 404], migration.text).toContain(migration.status)
    expect((await app.payload.count({ collection: 'payload-migrations', where: { name: { equals: 'forged' } } })).totalDocs).toBe(0)
  })
})
