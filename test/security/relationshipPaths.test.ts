/**
 * The side-door table through relationships, by construction, against the production server
 * (Payload's REST as Next serves it): every collection × every caller (anonymous, each seeded
 * role, a role with each single permission) × a `where` and a `sort` through every relationship
 * path one and two steps deep (every field of the related collection, those the caller may not
 * read included), and a read at depth 2 and with a `select` of each relationship (what it
 * populates). Never a 5xx, never a crash (the review's `where[actor.roles.name]` killed a
 * worker), never a value the caller may not read: a path through a collection or field the
 * caller may not read is refused (400), never answered; a populated relationship of a collection
 * the caller may not read stays an id; no secret field anywhere. The paths come from Payload's
 * config, so a new relationship or field is in the table without editing this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { PERMISSIONS } from '../../src/auth/permissions'
import { api } from '../browser/support/api'
import { ADMIN, type RunningServer, startServer } from '../browser/support/server'

type Field = { name: string; type: string; relationTo?: unknown }
type Collection = { slug: string; fields: Field[] }
type Caller = { name: string; cookie?: string; access: any }

const SECRETS = ['hash', 'salt', 'sessions', 'passwordHash', 'passwordChangedAt', 'tokenHash', 'resetPasswordToken', 'apiKey', 'apiKeyIndex']
/** Fields nobody may filter or sort by (an account's secrets and lock state), whoever asks. */
const UNQUERYABLE = new Set([...SECRETS, 'resetPasswordExpiration', 'resetPasswordRequestedAt', 'lockUntil', 'loginAttempts'])

let server: RunningServer
let collections: Collection[]
const callers: Caller[] = []

/** Payload's collections and their fields, from its own config in this process. */
async function payloadCollections(): Promise<Collection[]> {
  const config = await (await import('../../payload.config')).default
  return config.collections.map((c) => ({ slug: c.slug, fields: c.flattenedFields.map((f) => ({ name: f.name, type: f.type, relationTo: 'relationTo' in f ? f.relationTo : undefined })) }))
}

/**
 * Runs `work` for every item, `limit` at a time; the results in the items' order. The server is a
 * two-process cluster: one request at a time left one of its processes and a core idle.
 */
async function inTurns<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await work(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: limit }, lane))
  return results
}

const isRelation = (f: Field): f is Field & { relationTo: string } => (f.type === 'relationship' || f.type === 'upload') && typeof f.relationTo === 'string'

async function get(path: string, cookie?: string) {
  const res = await fetch(`${server.baseUrl}/api${path}`, { headers: cookie ? { cookie } : {} })
  const text = await res.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.status, body, text }
}

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: 'true', WEB_CONCURRENCY: '2' })
  collections = await payloadCollections()
  const admin = await api(server, 'POST', '/auth/login', ADMIN)
  const token = admin.body.data.accessToken
  const cookieOf = async (email: string, password: string) => {
    const res = await fetch(`${server.baseUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
    return res.status === 200 ? /payload-token=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0] : undefined
  }
  const accessOf = async (cookie?: string) => (await get('/access', cookie)).body
  callers.push({ name: 'anonymous', access: await accessOf() })
  const roles = (await api(server, 'GET', '/roles', undefined, token)).body.data as { id: string; name: string }[]
  const withRole = async (name: string, roleId: string): Promise<Caller> => {
    const email = `${name.replace(/[^a-z]/g, '')}-${Math.random().toString(36).slice(2, 8)}@example.com`
    const created = await api(server, 'POST', '/users', { email, username: email.split('@')[0], password: 'a-long-password-1', roles: [roleId] }, token)
    expect(created.status).toBe(201)
    const cookie = await cookieOf(email, 'a-long-password-1')
    return { name, cookie, access: await accessOf(cookie) }
  }
  const singles = await inTurns(PERMISSIONS, 4, async (permission) => {
    const role = await api(server, 'POST', '/roles', { name: `only-${permission}`, permissions: [permission] }, token)
    expect(role.status).toBe(201)
    return { name: `only ${permission}`, id: role.body.data.id as string }
  })
  // Each account's password is hashed at production cost: two at a time on each server process.
  callers.push(...(await inTurns([...roles, ...singles], 4, (role) => withRole(role.name, role.id))))
}, 240_000)
afterAll(() => server?.stop())

/**
 * Whether the caller may read each collection and field along the path. A path ending in the
 * related document's `id` is the relationship's own value (Payload reads it so), which the
 * caller sees on the document itself.
 */
function readable(caller: Caller, chain: { collection: string; field: string }[]): boolean {
  const steps = chain.length > 1 && chain.at(-1)!.field === 'id' ? chain.slice(0, -1) : chain
  return steps.every(({ collection, field }) => {
    if (UNQUERYABLE.has(field)) return false
    const entity = caller.access?.collections?.[collection]
    if (!entity?.read) return false
    // Payload's permissions say a field's read as `{ permission }` or, sanitized, as a bare boolean,
    // and leave out a field the caller may not read.
    const given = entity.fields as Record<string, { read?: boolean | { permission?: boolean } }> | boolean | undefined
    const fields = typeof given === 'object' ? given : undefined
    if (fields && !(field in fields) && field !== 'id') return false
    const read = fields?.[field]?.read
    return read !== false && (typeof read !== 'object' || read.permission !== false)
  })
}

/** Every path one and two relationships deep, with the collection and field each step reads. */
function paths(): { collection: string; path: string; type: string; chain: { collection: string; field: string }[] }[] {
  const bySlug = new Map(collections.map((c) => [c.slug, c]))
  const out: ReturnType<typeof paths> = []
  for (const c of collections) {
    for (const r of c.fields.filter(isRelation)) {
      const t = bySlug.get(r.relationTo)!
      for (const f of t.fields) {
        out.push({ collection: c.slug, path: `${r.name}.${f.name}`, type: f.type, chain: [{ collection: c.slug, field: r.name }, { collection: t.slug, field: f.name }] })
      }
      for (const r2 of t.fields.filter(isRelation)) {
        const u = bySlug.get(r2.relationTo)!
        for (const g of u.fields) {
          out.push({
            collection: c.slug,
            path: `${r.name}.${r2.name}.${g.name}`,
            type: g.type,
            chain: [{ collection: c.slug, field: r.name }, { collection: t.slug, field: r2.name }, { collection: u.slug, field: g.name }],
          })
        }
      }
    }
  }
  return out
}

/** A value of the field's type for the `where` (a date that is no date is a 400 of its own, below). */
const VALUES: Record<string, string> = { date: '2026-01-01T00:00:00.000Z', number: '1', checkbox: 'true' }

/** Secret fields anywhere in an answer. */
function secretsIn(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => secretsIn(v, `${at}[${i}]`))
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([k, v]) => (SECRETS.includes(k) ? [`${at}.${k}`] : secretsIn(v, `${at}.${k}`)))
}

describe('relationship paths × every caller', () => {
  it('where and sort through every path one and two steps deep: never 5xx; refused (400) exactly where the caller may not read', async () => {
    const all = paths()
    expect(all.length).toBeGreaterThan(200)
    const asks = callers.flatMap((caller) =>
      all.flatMap(({ collection, path, type, chain }) => {
        const canList = !!caller.access?.collections?.[collection]?.read
        // A caller who may not list the collection is refused whatever the path (the query guard may say so first: 400).
        const expected = !canList ? [400, 401, 403] : readable(caller, chain) ? [200] : [400]
        return [`where[${path}][equals]=${VALUES[type] ?? 'admin'}`, `sort=${path}`].map((query) => ({ caller, collection, query, expected }))
      }),
    )
    const problems = await inTurns(asks, 4, async ({ caller, collection, query, expected }) => {
      const answer = await get(`/${collection}?${query}&limit=1&depth=0`, caller.cookie)
      return expected.includes(answer.status) ? [] : [`${caller.name} GET /${collection}?${query} → ${answer.status} (expected ${expected.join('/')}) ${answer.text.slice(0, 120)}`]
    })
    expect(problems.flat()).toEqual([])
  }, 600_000)

  it('what a read populates (depth 2, and a select of each relationship): no secret, no document of a collection the caller may not read', async () => {
    const problems: string[] = []
    for (const caller of callers) {
      for (const c of collections) {
        if (!caller.access?.collections?.[c.slug]?.read) continue
        const relations = c.fields.filter(isRelation)
        const reads = [`/${c.slug}?depth=2&limit=5`, ...relations.map((r) => `/${c.slug}?select[${r.name}]=true&depth=1&limit=5`)]
        for (const path of reads) {
          const answer = await get(path, caller.cookie)
          if (answer.status !== 200) {
            problems.push(`${caller.name} GET ${path} → ${answer.status}`)
            continue
          }
          for (const secret of secretsIn(answer.body)) problems.push(`${caller.name} GET ${path}: ${secret}`)
          for (const doc of answer.body.docs ?? []) {
            for (const r of relations) {
              // A has-many relationship is a list: each entry an id, or the document when it may be read.
              const values = Array.isArray(doc[r.name]) ? doc[r.name] : [doc[r.name]]
              const populated = values.some((v: unknown) => v !== null && typeof v === 'object')
              if (populated && !caller.access?.collections?.[r.relationTo]?.read) {
                problems.push(`${caller.name} GET ${path}: ${r.name} populated from ${r.relationTo}, which it may not read`)
              }
            }
          }
        }
      }
    }
    expect(problems).toEqual([])
  }, 600_000)

  it('a date compared with text that is no date, directly or through a relationship: 400 naming it, for every caller who may list', async () => {
    const problems: string[] = []
    for (const caller of callers) {
      for (const [collection, path] of [['content', 'createdAt'], ['content', 'group.createdAt'], ['content', 'submittedBy.roles.updatedAt'], ['notifications', 'content.approvedAt']]) {
        if (!caller.access?.collections?.[collection!]?.read) continue
        const answer = await get(`/${collection}?where[${path}][greater_than]=admin&limit=1`, caller.cookie)
        if (answer.status !== 400 || answer.body?.error?.details?.[0]?.constraint !== 'date') problems.push(`${caller.name} ${collection} ${path} → ${answer.status} ${answer.text.slice(0, 100)}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('the server served all of it from the same processes: no worker died, nothing logged at fatal', () => {
    const lines = server.logs
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; level: string })
    expect(lines.filter((l) => l.msg === 'cluster.worker_died' || l.msg === 'process.crashed' || l.level === 'fatal')).toEqual([])
    // Payload's query validation leaves a rejected promise behind for some of these paths: a warn, never an error.
    expect(lines.filter((l) => l.msg === 'process.unhandled_rejection' && l.level !== 'warn')).toEqual([])
  })
})
