/**
 * The authorization matrix, derived from ONE declared table: every /api/v1 route (the real
 * route table from endpoints/index.ts) and every Payload collection and global operation
 * over REST (the real config), for the callers anonymous, member, one user per permission
 * (a role holding just it) and the admin. A route or collection without a row fails.
 *
 * Outcomes are status classes: 401, 403, 404 (no REST endpoint: Payload's "Cannot GET", answered 404 by the REST guard), or `allowed`: the
 * permission gate passed (anything but 401/403, below 500; a domain 4xx such as 400/404 is
 * allowed: requests use unknown ids and empty bodies so that nothing real changes).
 */
// The production setting: registration is by invite (user.invite) only.
process.env.AUTH_ALLOW_SELF_REGISTRATION = 'false'

import { beforeAll, describe, expect, it } from 'vitest'

import { routes } from '../../endpoints'
import { CONSOLE_PERMISSIONS, type Permission, PERMISSIONS } from '../../src/auth/permissions'
import { ADMIN, createUser, freshIp, login } from '../auth/helpers'
import { type TestApp, testApp } from '../support/app'

type Outcome = 'allowed' | 401 | 403 | 404

/** A /api/v1 route's gate. */
type ApiGate =
  | { public: true }
  | { signedIn: true }
  /** ALL of these; `anonymous` when the anonymous answer is not 401. */
  | { allOf: readonly Permission[]; anonymous?: Outcome }

/** A Payload REST operation's gate; denials are 403 for every caller (Payload's Forbidden). */
type RestGate =
  | 'public'
  | 'console'
  | 'nobody'
  | 'no-endpoint'
  | { anyOf: readonly Permission[] }
  /** Every one of these (document locks: only a holder of every permission removes another's). */
  | { allOf: readonly Permission[] }
  /** Payload's preference endpoints, keyed by the caller's own user: every caller (anonymous: nothing). */
  | 'own'
  /** The same, refusing callers without a session: 401 (Payload's UnauthorizedError). */
  | 'own-signed-in'

const PUBLIC: ApiGate = { public: true }
const SIGNED_IN: ApiGate = { signedIn: true }
const holders = (...allOf: Permission[]): ApiGate => ({ allOf })
const EVERY_PERMISSION = holders(...PERMISSIONS)

/** THE TABLE, part 1: every /api/v1 route, `METHOD path` as declared in the route table. */
const API: Record<string, ApiGate> = {
  'GET /meta': PUBLIC,
  'GET /health': PUBLIC,
  'GET /ready': PUBLIC,
  'GET /catalog': PUBLIC,
  'GET /content': PUBLIC,
  'GET /content/:slug/related': PUBLIC,
  'GET /content/:slug': PUBLIC,
  'POST /content/submit': SIGNED_IN,
  'POST /content/:slug/approve': holders('content.approve'),
  'POST /content/:slug/reject': holders('content.approve'),
  'DELETE /content/:slug': holders('content.delete'),
  'POST /content/:slug/restore': holders('content.delete'),
  'GET /moderation/events': holders('content.moderate'),
  'GET /tags': PUBLIC,
  'GET /tags/:slug': PUBLIC,
  'POST /tags': holders('tag.manage'),
  'PATCH /tags/:slug': holders('tag.manage'),
  'POST /tags/:slug/rename': holders('tag.manage'),
  'POST /slug/suggest': PUBLIC,
  'POST /catalog/surfaces/reorder': holders('catalog.manage'),
  'POST /catalog/surfaces/:surface/groups/reorder': holders('catalog.manage'),
  'POST /catalog/surfaces/:surface/groups/:group/channels/reorder': holders('catalog.manage'),
  'POST /catalog/surfaces': holders('catalog.manage'),
  'PATCH /catalog/surfaces/:surface': holders('catalog.manage'),
  'POST /catalog/surfaces/:surface/rename': EVERY_PERMISSION,
  'POST /catalog/surfaces/:surface/groups': holders('catalog.manage'),
  'PATCH /catalog/surfaces/:surface/groups/:group': holders('catalog.manage'),
  'POST /catalog/surfaces/:surface/groups/:group/rename': EVERY_PERMISSION,
  'POST /catalog/surfaces/:surface/groups/:group/channels': holders('catalog.manage'),
  'PATCH /catalog/surfaces/:surface/groups/:group/channels/:channel': holders('catalog.manage'),
  'POST /catalog/surfaces/:surface/groups/:group/channels/:channel/rename': EVERY_PERMISSION,
  'POST /catalog/platforms': holders('catalog.manage'),
  'PATCH /catalog/platforms/:platform': holders('catalog.manage'),
  'POST /catalog/platforms/:platform/rename': holders('catalog.manage'),
  'POST /catalog/facets': holders('catalog.manage'),
  'PATCH /catalog/facets/:facet': holders('catalog.manage'),
  'POST /catalog/facets/:facet/rename': holders('catalog.manage'),
  // Registration closed: only holders of user.invite may register someone (anonymous: 403).
  'POST /auth/register': { allOf: ['user.invite'], anonymous: 403 },
  'POST /auth/login': PUBLIC,
  'POST /auth/refresh': PUBLIC,
  'POST /auth/logout': SIGNED_IN,
  'GET /auth/me': SIGNED_IN,
  'GET /auth/me/submissions': SIGNED_IN,
  'POST /auth/password/change': SIGNED_IN,
  'POST /users': holders('user.manage'),
  'GET /users': holders('user.manage'),
  'GET /users/:id': holders('user.manage'),
  'PATCH /users/:id': holders('user.manage'),
  'DELETE /users/:id': holders('user.manage'),
  'POST /roles': holders('role.manage'),
  'GET /roles': holders('role.manage'),
  'GET /roles/:id': holders('role.manage'),
  'PATCH /roles/:id': holders('role.manage'),
  'DELETE /roles/:id': holders('role.manage'),
}

type CollectionOp = 'find' | 'findByID' | 'create' | 'update' | 'delete'
type GlobalOp = 'read' | 'update'

const taxonomy = { find: 'console', findByID: 'console', create: { anyOf: ['catalog.manage'] }, update: { anyOf: ['catalog.manage'] }, delete: 'nobody' } as const
const noRest = { find: 'no-endpoint', findByID: 'no-endpoint', create: 'no-endpoint', update: 'no-endpoint', delete: 'no-endpoint' } as const
const readOnlyFor = (p: Permission) => ({ find: { anyOf: [p] }, findByID: { anyOf: [p] }, create: 'nobody', update: 'nobody', delete: 'nobody' }) as const
const closed = { find: 'nobody', findByID: 'nobody', create: 'nobody', update: 'nobody', delete: 'nobody' } as const

/** THE TABLE, part 2: every collection (Payload's own included) and global over REST. */
const COLLECTIONS: Record<string, Record<CollectionOp, RestGate>> = {
  // Console users read their own record; user.manage reads and writes all (grant rules: see GRANTS).
  users: { find: 'console', findByID: 'console', create: { anyOf: ['user.manage'] }, update: { anyOf: ['user.manage'] }, delete: 'nobody' },
  roles: {
    find: { anyOf: ['role.manage', 'user.manage'] },
    findByID: { anyOf: ['role.manage', 'user.manage'] },
    create: { anyOf: ['role.manage'] },
    update: { anyOf: ['role.manage'] },
    delete: { anyOf: ['role.manage'] },
  },
  'refresh-tokens': noRest,
  facets: taxonomy,
  surfaces: taxonomy,
  groups: taxonomy,
  channels: taxonomy,
  platforms: taxonomy,
  media: { find: 'public', findByID: 'public', create: { anyOf: ['catalog.manage'] }, update: { anyOf: ['catalog.manage'] }, delete: { anyOf: ['catalog.manage'] } },
  tags: { find: 'console', findByID: 'console', create: { anyOf: ['tag.manage'] }, update: { anyOf: ['tag.manage'] }, delete: 'nobody' },
  content: {
    find: { anyOf: ['content.moderate'] },
    findByID: { anyOf: ['content.moderate'] },
    create: { anyOf: ['content.moderate'] },
    update: { anyOf: ['content.moderate'] },
    delete: 'nobody',
  },
  notifications: readOnlyFor('user.manage'),
  'tag-renames': readOnlyFor('tag.manage'),
  // The global slugs' claims: written with their holders, never through REST.
  'slug-claims': closed,
  // The moderation audit trail: written by the engines only, never edited or deleted.
  'moderation-events': readOnlyFor('content.moderate'),
  // Payload's internals: the key-value store is server-only. (No payload-jobs: follow-ups
  // use the service's own outbox, which no REST route reaches.)
  'payload-kv': closed,
  // The admin panel's document locks: every console session writes its own; removing another's
  // (the unknown id here is nobody's own) takes every permission.
  'payload-locked-documents': { find: 'console', findByID: 'console', create: 'console', update: 'console', delete: { allOf: PERMISSIONS } },
  // Per-user preferences: GET/DELETE /payload-preferences/<key> act on the caller's own record
  // only; PATCH by id reaches no one else's (403 for an id that is not one's own).
  'payload-preferences': { find: 'console', findByID: 'own', create: 'console', update: 'nobody', delete: 'own-signed-in' },
  'payload-migrations': noRest,
}

const GLOBALS: Record<string, Record<GlobalOp, RestGate>> = {
  branding: { read: 'console', update: { anyOf: ['catalog.manage'] } },
}

/**
 * THE TABLE, part 3: granting. Only holders grant (issue 9, findings 1 and 2; fixed on
 * branch sec-grants): the desired outcome is encoded here.
 */
const GRANT_CASES = ['user.manage gives itself the admin role', 'user.manage creates an admin', 'role.manage adds user.manage to its own role'] as const

// ---------------------------------------------------------------------------------------

type Caller = {
  name: string
  /** Effective permissions as the API sees them (content.submit is implicit for every user). */
  permissions: Permission[]
  token?: string
  /** A console session; only users holding a console permission can have one. */
  cookie?: string
  userId?: string
  roleId?: string
}

const UNKNOWN_ID = '0123456789abcdef01234567'

function expectedApi(gate: ApiGate, caller: Caller): Outcome {
  if ('public' in gate) return 'allowed'
  if (!caller.token) return 'signedIn' in gate ? 401 : (gate.anonymous ?? 401)
  if ('signedIn' in gate) return 'allowed'
  return gate.allOf.every((p) => caller.permissions.includes(p)) ? 'allowed' : 403
}

function expectedRest(gate: RestGate, caller: Caller): Outcome {
  if (gate === 'no-endpoint') return 404
  if (gate === 'public' || gate === 'own') return 'allowed'
  if (gate === 'own-signed-in') return caller.cookie ? 'allowed' : 401
  if (gate === 'nobody' || !caller.cookie) return 403
  if (gate === 'console') return 'allowed'
  if ('allOf' in gate) return gate.allOf.every((p) => caller.permissions.includes(p)) ? 'allowed' : 403
  return gate.anyOf.some((p) => caller.permissions.includes(p)) ? 'allowed' : 403
}

function classOf(status: number, expected: Outcome): Outcome | number {
  if (status === 401 || status === 403) return status
  if (status === 404 && expected === 404) return 404
  return status < 500 ? 'allowed' : status
}

let ready: Promise<{ app: TestApp; callers: Caller[] }> | undefined

async function consoleCookie(app: TestApp, email: string, password: string): Promise<string> {
  const res = await app.request('POST', '/users/login', { body: { email, password }, headers: freshIp() })
  expect(res.status, res.text).toBe(200)
  return `payload-token=${/payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`
}

function setup() {
  ready ??= (async () => {
    const app = await testApp()
    const callers: Caller[] = [{ name: 'anonymous', permissions: [] }]
    const member = await createUser(app, ['member'])
    callers.push({
      name: 'member',
      permissions: ['content.submit'],
      token: (await login(app, member.email, member.password)).accessToken,
      userId: String(member.id),
    })
    for (const permission of PERMISSIONS) {
      const role = await app.payload.create({ collection: 'roles', data: { name: `just-${permission}`, permissions: [permission] }, overrideAccess: true })
      const user = await createUser(app, [String(role.id)])
      const isConsole = CONSOLE_PERMISSIONS.includes(permission)
      callers.push({
        name: permission,
        permissions: [...new Set<Permission>([permission, 'content.submit'])],
        token: (await login(app, user.email, user.password)).accessToken,
        cookie: isConsole ? await consoleCookie(app, user.email, user.password) : undefined,
        userId: String(user.id),
        roleId: String(role.id),
      })
    }
    callers.push({
      name: 'admin',
      permissions: [...PERMISSIONS],
      token: (await login(app, ADMIN.email, ADMIN.password)).accessToken,
      cookie: await consoleCookie(app, ADMIN.email, ADMIN.password),
    })
    return { app, callers }
  })()
  return ready
}

const routeKey = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`
const concrete = (path: string) => path.replace(/:([a-zA-Z]+)/g, (_, name: string) => (name === 'id' ? UNKNOWN_ID : `no-such-${name.toLowerCase()}`))

// Signing in one user per permission (argon2) takes tens of seconds on a loaded 2-core machine.
describe('authorization matrix', { timeout: 180_000 }, () => {
  beforeAll(() => setup(), 300_000)

  it('has exactly one row for every /api/v1 route, every collection and every global', async () => {
    const { app } = await setup()
    expect(Object.keys(API).sort()).toEqual(routes.map(routeKey).sort())
    expect(Object.keys(COLLECTIONS).sort()).toEqual(app.config.collections.map((c) => c.slug).sort())
    expect(Object.keys(GLOBALS).sort()).toEqual(app.config.globals.map((g) => g.slug).sort())
  })

  it('/api/v1: every route answers every caller as the table says', async () => {
    const { app, callers } = await setup()
    const wrong: string[] = []
    for (const route of routes) {
      const gate = API[routeKey(route)]!
      for (const caller of callers) {
        const method = route.method.toUpperCase()
        const res = await app.request(method, `/v1${concrete(route.path)}`, {
          token: caller.token,
          headers: freshIp(),
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        })
        const expected = expectedApi(gate, caller)
        const got = classOf(res.status, expected)
        if (got !== expected) wrong.push(`${routeKey(route)} as ${caller.name}: expected ${expected}, got ${res.status} ${res.text.slice(0, 120)}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it("Payload's REST: every collection and global operation answers every caller as the table says", async () => {
    const { app, callers } = await setup()
    const wrong: string[] = []
    // Users without a console permission cannot sign in to the console: they try their API token.
    const headersOf = (caller: Caller): Record<string, string> =>
      caller.cookie ? { cookie: caller.cookie } : caller.token ? { authorization: `Bearer ${caller.token}` } : {}
    const probe = async (what: string, gate: RestGate, method: string, path: string, body?: unknown, prepare?: (c: Caller) => Promise<void>) => {
      for (const caller of callers) {
        await prepare?.(caller)
        const headers = headersOf(caller)
        const res = await app.request(method, path, { headers, body })
        const expected = expectedRest(gate, caller)
        const got = classOf(res.status, expected)
        if (got !== expected) wrong.push(`${what} as ${caller.name}: expected ${expected}, got ${res.status} ${res.text.slice(0, 120)}`)
      }
    }
    for (const collection of app.config.collections) {
      const gates = COLLECTIONS[collection.slug]!
      const base = `/${collection.slug}`
      await probe(`${collection.slug} find`, gates.find, 'GET', `${base}?limit=1`)
      await probe(`${collection.slug} findByID`, gates.findByID, 'GET', `${base}/${UNKNOWN_ID}`)
      await probe(`${collection.slug} create`, gates.create, 'POST', base, {})
      await probe(`${collection.slug} update`, gates.update, 'PATCH', `${base}/${UNKNOWN_ID}`, {})
      // Preferences are deleted by key; the caller's own key exists first (an unknown key is a
      // 500 inside Payload's preference handler on SQLite, which is not what this test is about).
      const ownPreference = collection.slug === 'payload-preferences'
      const prepare = ownPreference
        ? async (c: Caller) => {
            if (c.cookie) await app.request('POST', `${base}/${UNKNOWN_ID}`, { headers: headersOf(c), body: { value: { probe: true } } })
          }
        : undefined
      await probe(`${collection.slug} delete`, gates.delete, 'DELETE', `${base}/${UNKNOWN_ID}`, undefined, prepare)
    }
    for (const global of app.config.globals) {
      const gates = GLOBALS[global.slug]!
      await probe(`global ${global.slug} read`, gates.read, 'GET', `/globals/${global.slug}`)
      // An update with an empty body changes nothing when it is allowed.
      await probe(`global ${global.slug} update`, gates.update, 'POST', `/globals/${global.slug}`, {})
    }
    expect(wrong).toEqual([])
  })

  it('only holders grant: a caller cannot give a permission it lacks, through the API or the console (desired outcome)', async () => {
    const { app, callers } = await setup()
    const adminRole = (await app.payload.find({ collection: 'roles', where: { name: { equals: 'admin' } }, overrideAccess: true })).docs[0]!
    const userManager = callers.find((c) => c.name === 'user.manage')!
    const roleManager = callers.find((c) => c.name === 'role.manage')!
    const outcomes: Record<(typeof GRANT_CASES)[number], number[]> = {
      'user.manage gives itself the admin role': [
        (await app.request('PATCH', `/v1/users/${userManager.userId}`, { token: userManager.token, body: { roles: [String(adminRole.id)] } })).status,
        (await app.request('PATCH', `/users/${userManager.userId}`, { headers: { cookie: userManager.cookie! }, body: { roles: [adminRole.id] } })).status,
      ],
      'user.manage creates an admin': [
        (
          await app.request('POST', '/v1/users', {
            token: userManager.token,
            body: { email: 'grant-a@example.com', username: 'granta', password: 'a-long-password-1', roles: [String(adminRole.id)] },
          })
        ).status,
        (
          await app.request('POST', '/users', {
            headers: { cookie: userManager.cookie! },
            body: { email: 'grant-b@example.com', username: 'grantb', password: 'a-long-password-1', roles: [adminRole.id] },
          })
        ).status,
      ],
      'role.manage adds user.manage to its own role': [
        (await app.request('PATCH', `/v1/roles/${roleManager.roleId}`, { token: roleManager.token, body: { permissions: ['role.manage', 'user.manage'] } })).status,
        (await app.request('PATCH', `/roles/${roleManager.roleId}`, { headers: { cookie: roleManager.cookie! }, body: { permissions: ['role.manage', 'user.manage'] } })).status,
      ],
    }
    expect(outcomes).toEqual(Object.fromEntries(GRANT_CASES.map((name) => [name, [403, 403]])))
  })
})
