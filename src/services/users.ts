/**
 * Users: the DTO, CRUD and deactivation. Every write names its grantor and obeys the grant
 * rule (src/services/grants.ts): roles only with permissions the grantor holds, and no
 * change to a user who holds a permission the grantor lacks. Passwords are given as plain `password` and hashed
 * by the users collection's hooks (collections/hooks/users.ts), so the API and the admin panel
 * share one path to the argon2id hash.
 */
import type { Payload, Where } from 'payload'

import { LAST_HOLDER_MESSAGE, orphanedPermissions, type UserChange } from './lastHolder'
import { IMPLICIT_PERMISSIONS } from '../../access/guards'
import { permissionsOfUser } from '../../access/userPermissions'
import type { User } from '../../payload-types'
import { ApiError, notFound } from '../platform/errors'
import { type Page, type Pagination, paginationOf } from '../platform/pagination'
import { actOnUserProblem, type Grantor, roleAssignmentProblem, throwIfRefused } from './grants'
import { resolveRoleRefs, roleIdByName, type RoleDoc } from './roles'
import { asConflict } from './conflicts'
import type { CreateUserInput, UpdateUserInput } from './requestBodies'
import { payloadWrite } from '../db/payloadWrite'
import { conditionalContext, type IfMatch } from './recordVersions'
import type { UserDto } from './dtos'

/** A user document as the Local API returns it (payload-types.ts); `passwordHash` only with showHiddenFields. */
export type UserDoc = User

export type { UserDto }

export type { CreateUserInput, UpdateUserInput }

const HEX_ID = /^[0-9a-f]{24}$/
export const DEFAULT_ROLE_NAME = 'member'

/** The user as every response shows it: never the hash. */
export function toUserDto(doc: UserDoc): UserDto {
  return {
    id: String(doc.id),
    email: doc.email,
    username: doc.username,
    roles: (doc.roles ?? [])
      .filter((r): r is RoleDoc => typeof r === 'object' && r !== null)
      .map((r) => ({ id: String(r.id), name: r.name })),
    isActive: doc.isActive !== false,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  }
}

/** What the user may do now: the union of their roles' permissions plus the implicit ones, sorted. */
export function effectivePermissions(doc: UserDoc): string[] {
  if (doc.isActive === false) return []
  return [...new Set([...permissionsOfUser(doc), ...IMPLICIT_PERMISSIONS])].sort()
}

export async function findUser(payload: Payload, id: string): Promise<UserDoc | null> {
  if (!HEX_ID.test(id)) return null
  const res = await payload.find({ collection: 'users', where: { id: { equals: id } }, limit: 1, depth: 1, overrideAccess: true })
  return res.docs[0] ?? null
}

/** The user with the stored hash, for credential checks only. */
export async function findUserWithHash(payload: Payload, email: string): Promise<UserDoc | null> {
  const res = await payload.find({
    collection: 'users',
    where: { email: { equals: email.trim().toLowerCase() } },
    limit: 1,
    depth: 1,
    overrideAccess: true,
    showHiddenFields: true,
  })
  return res.docs[0] ?? null
}

export async function requireUser(payload: Payload, id: string): Promise<UserDoc> {
  const user = await findUser(payload, id)
  if (!user) throw notFound('user.not_found', 'No user has this id.')
  return user
}

const emailTaken = () => new ApiError(409, 'user.email_taken', 'This email is already registered.')
const usernameTaken = () => new ApiError(409, 'user.username_taken', 'This username is taken.')

async function assertUnique(payload: Payload, input: { email?: string; username?: string }, exceptId?: string): Promise<void> {
  const check = async (field: 'email' | 'username', value: string | undefined) => {
    if (value === undefined) return false
    const where: Where = { [field]: { equals: value } }
    const res = await payload.find({ collection: 'users', where, limit: 1, depth: 0, overrideAccess: true })
    return res.docs.some((d) => String(d.id) !== exceptId)
  }
  if (await check('email', input.email)) throw emailTaken()
  if (await check('username', input.username)) throw usernameTaken()
}

/** A unique-index race (after assertUnique's check) is the same 409 as the check's. */
const USER_CONFLICTS = { email: emailTaken, username: usernameTaken }

export async function createUser(payload: Payload, input: CreateUserInput, grantor: Grantor): Promise<UserDoc> {
  const email = input.email.trim().toLowerCase()
  await assertUnique(payload, { email, username: input.username })
  let roles: string[]
  if (input.roles !== undefined) {
    roles = await resolveRoleRefs(payload, input.roles)
  } else {
    const member = await roleIdByName(payload, DEFAULT_ROLE_NAME)
    roles = member ? [member] : []
  }
  throwIfRefused(await roleAssignmentProblem(payload, grantor, roles))
  let created: { id: string | number }
  try {
    created = await payloadWrite(() => payload.create({
      collection: 'users',
      data: { email, username: input.username, password: input.password, roles, isActive: true },
      overrideAccess: true,
    }))
  } catch (err) {
    throw asConflict(err, USER_CONFLICTS)
  }
  return (await findUser(payload, String(created.id)))!
}

export async function updateUser(payload: Payload, id: string, patch: UpdateUserInput, grantor: Grantor, ifMatch?: IfMatch): Promise<UserDoc> {
  const user = await requireUser(payload, id)
  const roles = patch.roles !== undefined ? await resolveRoleRefs(payload, patch.roles) : undefined
  throwIfRefused(await actOnUserProblem(payload, grantor, user.roles))
  if (roles !== undefined) throwIfRefused(await roleAssignmentProblem(payload, grantor, roles))
  const email = patch.email?.trim().toLowerCase()
  await assertUnique(payload, { email, username: patch.username }, String(user.id))
  const data: Partial<Pick<User, 'email' | 'username' | 'password' | 'isActive' | 'roles'>> = {}
  if (email !== undefined) data.email = email
  if (patch.username !== undefined) data.username = patch.username
  if (patch.password !== undefined) data.password = patch.password
  if (patch.isActive !== undefined) data.isActive = patch.isActive
  if (roles !== undefined) data.roles = roles
  await refuseOrphaning(payload, String(user.id), { roles, isActive: patch.isActive })
  try {
    // The users hooks revoke refresh tokens on deactivation and on a new password.
    await payloadWrite(() => payload.update({ collection: 'users', id: user.id, data, overrideAccess: true, context: conditionalContext(ifMatch) }))
  } catch (err) {
    throw asConflict(err, USER_CONFLICTS)
  }
  return (await findUser(payload, String(user.id)))!
}

/** 409 `user.last_holder` when the change would leave a permission with no active holder (./lastHolder). */
async function refuseOrphaning(payload: Payload, userId: string, change: UserChange): Promise<void> {
  const orphaned = await orphanedPermissions(payload, userId, change)
  if (orphaned.length > 0) throw new ApiError(409, 'user.last_holder', LAST_HOLDER_MESSAGE, { permissions: orphaned })
}

/** DELETE /users/:id: users are deactivated, never removed. */
export async function deactivateUser(payload: Payload, id: string, grantor: Grantor): Promise<{ deleted: true; id: string }> {
  const user = await requireUser(payload, id)
  throwIfRefused(await actOnUserProblem(payload, grantor, user.roles))
  await refuseOrphaning(payload, String(user.id), { isActive: false })
  await payloadWrite(() => payload.update({ collection: 'users', id: user.id, data: { isActive: false }, overrideAccess: true }))
  return { deleted: true, id: String(user.id) }
}

export async function listUsers(payload: Payload, page: Page): Promise<{ docs: UserDoc[]; pagination: Pagination }> {
  if (page.limit === 0) {
    // The count-only request (Payload would read limit 0 as "no limit").
    const { totalDocs } = await payload.count({ collection: 'users', overrideAccess: true })
    return { docs: [], pagination: paginationOf(page, 0, totalDocs) }
  }
  // Payload pages by page number; reading the first offset+limit rows gives any offset exactly.
  const res = await payload.find({ collection: 'users', sort: 'createdAt', limit: page.offset + page.limit, page: 1, depth: 1, overrideAccess: true })
  const docs = res.docs.slice(page.offset)
  return { docs, pagination: paginationOf(page, docs.length, res.totalDocs) }
}

/** Email and username of each of `ids` (one query), for lists that name people. */
export async function userNamesById(payload: Payload, ids: string[]): Promise<Map<string, { email: string | null; username: string | null }>> {
  const unique = [...new Set(ids)]
  const out = new Map<string, { email: string | null; username: string | null }>()
  if (unique.length === 0) return out
  const users = await payload.find({
    collection: 'users',
    where: { id: { in: unique } },
    limit: unique.length,
    depth: 0,
    overrideAccess: true,
    select: { email: true, username: true },
  })
  for (const u of users.docs) out.set(String(u.id), { email: u.email ?? null, username: u.username ?? null })
  return out
}
