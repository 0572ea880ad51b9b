/**
 * The last active holder of a permission keeps it: only holders grant, so a permission nobody
 * holds any more can never be granted again (the only admin removing its own admin role locks
 * everyone out of user and role management until the next start's bootstrap). A change to a
 * user (new roles, deactivation; users are never deleted) that would leave some permission the user holds
 * with no other active holder is refused, on the API (409 `user.last_holder`) and in the
 * console (the users collection's hooks, the same function).
 */
import type { Payload, PayloadRequest } from 'payload'

import { permissionsOfRoles, roleIdsOf } from './grants'

export type UserChange = { roles?: readonly string[]; isActive?: boolean }

export const LAST_HOLDER_MESSAGE = 'This change would leave no active user holding some permissions: give them to another user first.'

/** The permissions `userId` would take away from every active user by this change. */
export async function orphanedPermissions(payload: Payload, userId: string, change: UserChange, req?: PayloadRequest): Promise<string[]> {
  const user = await payload.findByID({ collection: 'users', id: userId, depth: 0, overrideAccess: true, req, disableErrors: true })
  if (!user || user.isActive === false) return []
  const before = await permissionsOfRoles(payload, roleIdsOf(user.roles), req)
  const stillActive = change.isActive !== false
  const after = stillActive ? await permissionsOfRoles(payload, change.roles ?? roleIdsOf(user.roles), req) : []
  const lost = before.filter((p) => !after.includes(p))
  const orphaned: string[] = []
  for (const permission of lost) {
    const roles = await payload.find({
      collection: 'roles',
      where: { permissions: { in: [permission] } },
      depth: 0,
      pagination: false,
      overrideAccess: true,
      select: {},
      req,
    })
    const roleIds = roles.docs.map((r) => String(r.id))
    const others =
      roleIds.length === 0
        ? 0
        : (
            await payload.count({
              collection: 'users',
              where: { and: [{ roles: { in: roleIds } }, { isActive: { not_equals: false } }, { id: { not_equals: userId } }] },
              overrideAccess: true,
              req,
            })
          ).totalDocs
    if (others === 0) orphaned.push(permission)
  }
  return orphaned
}
