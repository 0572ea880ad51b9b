/**
 * Roles: named sets of permission strings, stored as data. The rules here (the seeded admin
 * role is protected, a role in use cannot be deleted, only permissions the grantor holds
 * are added or taken away: src/services/grants.ts) are shared by the API and the admin
 * panel's collection hooks.
 */
import type { Payload } from 'payload'

import type { Role } from '../../payload-types'
import { type Permission, PERMISSIONS } from '../auth/permissions'
import { ApiError, notFound, validationFailed } from '../platform/errors'
import { type Grantor, actOnRoleProblem, roleChangeProblem, throwIfRefused } from './grants'
import { withConflicts } from './conflicts'
import { payloadWrite } from '../db/payloadWrite'
import { conditionalContext, type IfMatch } from './recordVersions'
import type { RoleDto } from './dtos'

/** A role document as the Local API returns it (payload-types.ts). */
export type RoleDoc = Role

export type { RoleDto }

/** The seeded role that must always hold every permission. */
export const ADMIN_ROLE_NAME = 'admin'

const HEX_ID = /^[0-9a-f]{24}$/

export function toRoleDto(doc: RoleDoc): RoleDto {
  return {
    id: String(doc.id),
    name: doc.name,
    description: doc.description ?? '',
    permissions: [...(doc.permissions ?? [])].sort(),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  }
}

/** Why a change to a role is refused, or null. The admin role keeps its name and every permission. */
export function protectedChangeProblem(original: Pick<RoleDoc, 'name'>, next: { name?: string; permissions?: string[] | null }): string | null {
  if (original.name !== ADMIN_ROLE_NAME) return null
  if (next.name !== undefined && next.name !== ADMIN_ROLE_NAME) return 'The admin role cannot be renamed.'
  if (next.permissions !== undefined) {
    const kept = new Set(next.permissions ?? [])
    if (!PERMISSIONS.every((p) => kept.has(p))) return 'The admin role cannot lose a permission.'
  }
  return null
}

export async function roleHolders(payload: Payload, roleId: string): Promise<number> {
  const res = await payload.count({ collection: 'users', where: { roles: { in: [roleId] } }, overrideAccess: true })
  return res.totalDocs
}

/** Why a role cannot be deleted (code and message), or null. */
export async function deleteProblem(payload: Payload, role: RoleDoc): Promise<{ code: string; message: string; details?: unknown } | null> {
  if (role.name === ADMIN_ROLE_NAME) return { code: 'role.protected', message: 'The admin role cannot be deleted.' }
  const holders = await roleHolders(payload, String(role.id))
  if (holders > 0) {
    return { code: 'role.in_use', message: 'The role is still held by users.', details: { users: holders } }
  }
  return null
}

async function findRole(payload: Payload, id: string): Promise<RoleDoc | null> {
  if (!HEX_ID.test(id)) return null
  const res = await payload.find({ collection: 'roles', where: { id: { equals: id } }, limit: 1, depth: 0, overrideAccess: true })
  return res.docs[0] ?? null
}

async function findRoleByName(payload: Payload, name: string): Promise<RoleDoc | null> {
  const res = await payload.find({ collection: 'roles', where: { name: { equals: name } }, limit: 1, depth: 0, overrideAccess: true })
  return res.docs[0] ?? null
}

export async function requireRole(payload: Payload, id: string): Promise<RoleDoc> {
  const role = await findRole(payload, id)
  if (!role) throw notFound('role.not_found', 'No role has this id.')
  return role
}

export async function listRoles(payload: Payload): Promise<RoleDto[]> {
  const res = await payload.find({ collection: 'roles', sort: 'name', pagination: false, depth: 0, overrideAccess: true })
  return res.docs.map(toRoleDto)
}

const nameTaken = () => new ApiError(409, 'role.name_taken', 'A role with this name exists.')
/** A unique-index race (after the name check) is the same 409. */
const ROLE_CONFLICTS = { name: nameTaken }

export async function createRole(
  payload: Payload,
  input: { name: string; description?: string; permissions: Permission[] },
  grantor: Grantor,
): Promise<RoleDto> {
  throwIfRefused(roleChangeProblem(grantor, null, input.permissions))
  if (await findRoleByName(payload, input.name)) throw nameTaken()
  const doc = await withConflicts(ROLE_CONFLICTS, () =>
    payloadWrite(() => payload.create({
      collection: 'roles',
      data: { name: input.name, description: input.description ?? '', permissions: [...new Set(input.permissions)] },
      overrideAccess: true,
    })),
  )
  return toRoleDto(doc)
}

export async function updateRole(
  payload: Payload,
  id: string,
  patch: { name?: string; description?: string; permissions?: Permission[] },
  grantor: Grantor,
  ifMatch?: IfMatch,
): Promise<RoleDto> {
  const role = await requireRole(payload, id)
  throwIfRefused(actOnRoleProblem(grantor, role.permissions ?? []))
  throwIfRefused(roleChangeProblem(grantor, role.permissions ?? [], patch.permissions))
  const problem = protectedChangeProblem(role, patch)
  if (problem) throw new ApiError(409, 'role.protected', problem)
  if (patch.name !== undefined && patch.name !== role.name) {
    const other = await findRoleByName(payload, patch.name)
    if (other) throw nameTaken()
  }
  const data: Partial<Pick<Role, 'name' | 'description' | 'permissions'>> = {}
  if (patch.name !== undefined) data.name = patch.name
  if (patch.description !== undefined) data.description = patch.description
  if (patch.permissions !== undefined) data.permissions = [...new Set(patch.permissions)]
  const doc = await withConflicts(ROLE_CONFLICTS, () => payloadWrite(() => payload.update({ collection: 'roles', id: role.id, data, overrideAccess: true, context: conditionalContext(ifMatch) })))
  return toRoleDto(doc)
}

export async function deleteRole(payload: Payload, id: string, grantor: Grantor): Promise<{ deleted: true; id: string }> {
  const role = await requireRole(payload, id)
  throwIfRefused(actOnRoleProblem(grantor, role.permissions ?? []))
  const problem = await deleteProblem(payload, role)
  if (problem) throw new ApiError(409, problem.code, problem.message, problem.details)
  await payloadWrite(() => payload.delete({ collection: 'roles', id: role.id, overrideAccess: true }))
  return { deleted: true, id: String(role.id) }
}

/**
 * Role references from a DTO (ids or names) to ids. Unknown ones are 400 `validation.failed`
 * naming the offending entry.
 */
export async function resolveRoleRefs(payload: Payload, refs: string[], field = 'roles'): Promise<string[]> {
  const ids: string[] = []
  const problems: { field: string; constraint: string; value: string }[] = []
  for (const [i, ref] of refs.entries()) {
    const role = (await findRole(payload, ref)) ?? (await findRoleByName(payload, ref))
    if (role) ids.push(String(role.id))
    else problems.push({ field: `${field}.${i}`, constraint: 'exists', value: ref })
  }
  if (problems.length > 0) throw validationFailed(problems)
  return [...new Set(ids)]
}

export async function roleIdByName(payload: Payload, name: string): Promise<string | null> {
  const role = await findRoleByName(payload, name)
  return role ? String(role.id) : null
}
