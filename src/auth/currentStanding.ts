/**
 * What a caller may write, decided by its user record now (decisions.md, "Who may write"): the
 * access token names the caller; its roles' permissions today, its `isActive` and its last
 * password change decide. Reads stay stateless (the token's claims); every write asks this.
 *
 * One cached lookup per write: the standings of this process are kept under the `access`
 * generation (src/db/freshness/generations), which moves on every committed write to users or roles, in
 * this process at once and in every other within the freshness bound (SQLite's counters,
 * MongoDB's change stream). The generation is read before the record, so a standing is never
 * kept under a generation newer than the data it was read from.
 */
import type { Payload } from 'payload'

import { type AuthUser, callerOf } from '../../access/guards'
import { generation } from '../db/engine'
import type { AccessClaims } from './accessToken'

const HEX_ID = /^[0-9a-f]{24}$/
/** Standings kept per process; past this the map starts again (a few hundred bytes each). */
const MAX_STANDINGS = 10_000

/** A user's standing now: its roles' permissions, whether it is active, when its password last changed. */
export type Standing = {
  readonly active: boolean
  readonly permissions: readonly string[]
  /** Seconds since the epoch (a token's `iat` is whole seconds); 0 when never recorded. */
  readonly passwordChangedAt: number
}

type Kept = { generation: string; byUser: Map<string, Standing | null> }

const kept = new WeakMap<object, Kept>()

type UserRow = { id: string; isActive?: boolean | null; roles?: unknown; passwordChangedAt?: string | null }

/** A role reference as an adapter reads it: an id (SQLite), an ObjectId (MongoDB), or a populated role. */
const roleIdOf = (role: unknown): string | undefined => {
  if (typeof role === 'string' || typeof role === 'number') return String(role)
  if (!role || typeof role !== 'object') return undefined
  if ('toHexString' in role && typeof role.toHexString === 'function') return String(role.toHexString())
  const id = 'id' in role ? role.id : undefined
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined
}

async function readStanding(payload: Payload, userId: string): Promise<Standing | null> {
  const user = await payload.db.findOne<UserRow>({
    collection: 'users',
    where: { id: { equals: userId } },
    select: { isActive: true, roles: true, passwordChangedAt: true },
  })
  if (!user) return null
  const roleIds = (Array.isArray(user.roles) ? user.roles : []).map(roleIdOf).filter((id): id is string => !!id && HEX_ID.test(id))
  const permissions = new Set<string>()
  if (roleIds.length > 0) {
    const roles = await payload.db.find<{ permissions?: string[] | null }>({
      collection: 'roles',
      where: { id: { in: [...new Set(roleIds)] } },
      limit: 0,
      pagination: false,
      select: { permissions: true },
    })
    for (const role of roles.docs) for (const p of role.permissions ?? []) permissions.add(p)
  }
  const changed = user.passwordChangedAt ? Date.parse(user.passwordChangedAt) : NaN
  return {
    active: user.isActive !== false,
    permissions: [...permissions].sort(),
    passwordChangedAt: Number.isFinite(changed) ? Math.floor(changed / 1000) : 0,
  }
}

/** The user's standing now (null: no such user), from this process's cache while users and roles are unchanged. */
export async function standingOf(payload: Payload, userId: string): Promise<Standing | null> {
  if (!HEX_ID.test(userId)) return null
  // Read before the record: a change committed meanwhile moves it past the value kept below.
  const version = generation(payload, 'access')
  let cache = kept.get(payload.db)
  if (!cache || cache.generation !== version) {
    cache = { generation: version, byUser: new Map() }
    kept.set(payload.db, cache)
  }
  const hit = cache.byUser.get(userId)
  if (hit !== undefined) return hit
  const standing = await readStanding(payload, userId)
  if (cache.byUser.size >= MAX_STANDINGS) cache.byUser.clear()
  cache.byUser.set(userId, standing)
  return standing
}

/**
 * The caller a verified token names, as it stands now, for a write: its current permissions
 * (plus the implicit ones); null when the user is gone, inactive, or changed its password after
 * the token was issued (its `iat`, whole seconds: a token of the same second still stands).
 */
export async function currentCaller(payload: Payload, claims: Pick<AccessClaims, 'sub' | 'iat'>): Promise<AuthUser | null> {
  const standing = await standingOf(payload, claims.sub)
  if (!standing || !standing.active || claims.iat < standing.passwordChangedAt) return null
  return callerOf({ sub: claims.sub, permissions: standing.permissions })
}
