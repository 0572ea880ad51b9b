/**
 * The grant rule, in the one place it lives: a caller may grant only permissions it holds.
 * The API (src/services/users.ts, src/services/roles.ts) and the admin console (the hooks of
 * collections/Users.ts and collections/Roles.ts) both ask these functions, so no path
 * grants more than its caller has.
 *
 * - Assigning roles (creating or updating a user): every permission of the roles given.
 * - Creating a role, or editing a role's permissions: every permission added or removed
 *   (an edit changes what every holder of the role has).
 * - Acting on a user at all (password, email, roles, activity): every permission that
 *   user's roles give, counted even while the user is inactive, since reactivating
 *   restores them.
 *
 * The holder of every permission can do all of it. The answer is a problem (or null);
 * each caller turns it into its own 403: `auth.forbidden` in the API, Payload's APIError
 * in the console.
 */
import { APIError, type Payload, type PayloadRequest } from 'payload'

import { IMPLICIT_PERMISSIONS } from '../../access/guards'
import { permissionsOf } from '../../access/userPermissions'
import { PERMISSIONS } from '../auth/permissions'
import { ApiError } from '../platform/errors'

/** Who grants: the permissions it holds now. */
export type Grantor = { readonly permissions: readonly string[] }

/** Trusted code paths with no caller (self-registration, bootstrap, first register). */
export const SYSTEM_GRANTOR: Grantor = { permissions: PERMISSIONS }

export type GrantProblem = { message: string; missing: string[] }

const HEX_ID = /^[0-9a-f]{24}$/

/** A caller with the given permissions; everyone authenticated also holds the implicit ones. */
export function grantorWith(permissions: readonly string[]): Grantor {
  return { permissions: [...new Set([...permissions, ...IMPLICIT_PERMISSIONS])] }
}

/**
 * The console's caller, or null for a trusted in-process call (Payload's local API without
 * a user: the services, which have asked this module already). A REST or GraphQL request
 * without a user grants nothing.
 */
export function grantorOfConsole(req: PayloadRequest): Grantor | null {
  if (req.user) return grantorWith(permissionsOf(req))
  return req.payloadAPI === 'local' ? null : grantorWith([])
}

/** The permissions in `wanted` that `grantor` does not hold, sorted. */
export function missingPermissions(grantor: Grantor, wanted: Iterable<string>): string[] {
  const held = new Set(grantor.permissions)
  return [...new Set(wanted)].filter((p) => !held.has(p)).sort()
}

/** Permissions one side has and the other lacks: what an edit from `before` to `after` changes. */
export function changedPermissions(before: readonly string[], after: readonly string[]): string[] {
  const a = new Set(before)
  const b = new Set(after)
  return [...new Set([...before, ...after])].filter((p) => a.has(p) !== b.has(p))
}

function problem(message: string, missing: string[]): GrantProblem | null {
  return missing.length === 0 ? null : { message, missing }
}

/** Creating a role with `permissions`, or editing one from `before` to `after`. */
export function roleChangeProblem(grantor: Grantor, before: readonly string[] | null, after: readonly string[] | undefined): GrantProblem | null {
  if (after === undefined) return null
  const changed = before === null ? after : changedPermissions(before, after)
  return problem('You can only grant or take away permissions you hold yourself.', missingPermissions(grantor, changed))
}

/** Role ids from a stored or submitted relationship value: ids, or populated role documents. */
export function roleIdsOf(roles: unknown): string[] {
  if (!Array.isArray(roles)) return []
  return roles
    .map((r) => (r && typeof r === 'object' && 'id' in r ? String((r as { id: unknown }).id) : String(r)))
    .filter((id) => id !== '' && id !== 'null' && id !== 'undefined')
}

/** The union of the stored permissions of the given roles (read from the database, never from the caller). */
export async function permissionsOfRoles(payload: Payload, roleIds: readonly string[], req?: PayloadRequest): Promise<string[]> {
  const ids = [...new Set(roleIds)].filter((id) => HEX_ID.test(id))
  if (ids.length === 0) return []
  const res = await payload.find({
    collection: 'roles',
    where: { id: { in: ids } },
    depth: 0,
    pagination: false,
    overrideAccess: true,
    req,
  })
  const out = new Set<string>()
  for (const role of res.docs as { permissions?: string[] | null }[]) for (const p of role.permissions ?? []) out.add(p)
  return [...out].sort()
}

/** Editing or deleting a role: the caller must hold every permission the role holds, as granting it would need. */
export function actOnRoleProblem(grantor: Grantor, rolePermissions: readonly string[]): GrantProblem | null {
  return problem('You cannot change or delete a role that holds permissions you do not hold.', missingPermissions(grantor, rolePermissions))
}

/** Giving a user exactly these roles. */
export async function roleAssignmentProblem(payload: Payload, grantor: Grantor, roleIds: readonly string[], req?: PayloadRequest): Promise<GrantProblem | null> {
  const granted = await permissionsOfRoles(payload, roleIds, req)
  return problem('You can only assign roles whose permissions you hold yourself.', missingPermissions(grantor, granted))
}

/** Changing or deactivating a user whose roles are `targetRoles`. */
export async function actOnUserProblem(payload: Payload, grantor: Grantor, targetRoles: unknown, req?: PayloadRequest): Promise<GrantProblem | null> {
  const held = await permissionsOfRoles(payload, roleIdsOf(targetRoles), req)
  return problem('You cannot change a user who holds permissions you do not hold.', missingPermissions(grantor, held))
}

/** The API's answer to a problem: 403 `auth.forbidden`, naming what is missing. */
export function throwIfRefused(found: GrantProblem | null): void {
  if (found) throw new ApiError(403, 'auth.forbidden', found.message, { missing: found.missing })
}

/** The console's answer to a problem: Payload's REST answers 403 with the message. */
export function throwIfRefusedInConsole(found: GrantProblem | null): void {
  if (found) throw new APIError(found.message, 403, { missing: found.missing }, true)
}
