import { APIError, type CollectionConfig } from 'payload'

import { allowIf } from '../access/collectionAccess'
import { domainWriteHooks } from './hooks/domainWrites'
import { permissionsOf } from '../access/userPermissions'
import { PERMISSIONS } from '../src/auth/permissions'
import { actOnRoleProblem, grantorOfConsole, roleChangeProblem, throwIfRefusedInConsole } from '../src/services/grants'
import { deleteProblem, protectedChangeProblem, type RoleDoc } from '../src/services/roles'
import { TEXT_LIMITS, textValidator } from '../src/platform/text'

/**
 * Roles are data: named sets of permission strings, editable at runtime. The same rules as
 * the API apply in the admin panel: the seeded admin role keeps every permission and cannot
 * be deleted, a role held by users cannot be deleted, only permissions the caller holds
 * are added or taken away, and a role is edited or deleted only by a holder of every permission
 * it holds (src/services/grants.ts).
 */
export const Roles: CollectionConfig = {
  slug: 'roles',
  admin: { useAsTitle: 'name', defaultColumns: ['name', 'permissions', 'updatedAt'], group: 'Access' },
  access: {
    // Role managers, and user managers who assign roles; moderators do not see roles.
    read: ({ req }) => {
      const held = permissionsOf(req)
      return held.includes('role.manage') || held.includes('user.manage')
    },
    create: allowIf('role.manage'),
    update: allowIf('role.manage'),
    delete: allowIf('role.manage'),
  },
  hooks: {
    // Who may write follows a role's edit at once (src/auth/currentStanding.ts).
    ...domainWriteHooks('access'),
    beforeChange: [
      ({ data, originalDoc, operation, req }) => {
        const grantor = grantorOfConsole(req)
        if (!grantor) return data
        const before = operation === 'update' ? ((originalDoc as RoleDoc | undefined)?.permissions ?? []) : null
        if (before) throwIfRefusedInConsole(actOnRoleProblem(grantor, before))
        const given = (data as { permissions?: string[] | null }).permissions
        const after = given === undefined ? (operation === 'create' ? [] : undefined) : (given ?? [])
        throwIfRefusedInConsole(roleChangeProblem(grantor, before, after))
        return data
      },
      ({ data, originalDoc, operation }) => {
        if (operation !== 'update' || !originalDoc) return data
        const problem = protectedChangeProblem(originalDoc as RoleDoc, data as { name?: string; permissions?: string[] })
        if (problem) throw new APIError(problem, 409, null, true)
        return data
      },
    ],
    beforeDelete: [
      async ({ id, req }) => {
        const role = await req.payload.findByID({ collection: 'roles', id, depth: 0, overrideAccess: true, req })
        const grantor = grantorOfConsole(req)
        if (grantor) throwIfRefusedInConsole(actOnRoleProblem(grantor, role.permissions ?? []))
        const problem = await deleteProblem(req.payload, role)
        if (problem) throw new APIError(problem.message, 409, null, true)
      },
    ],
  },
  fields: [
    { name: 'name', type: 'text', required: true, unique: true, index: true, validate: textValidator(TEXT_LIMITS.roleName) },
    { name: 'description', type: 'text', validate: textValidator(TEXT_LIMITS.roleDescription) },
    {
      name: 'permissions',
      type: 'select',
      hasMany: true,
      options: PERMISSIONS.map((p) => ({ label: p, value: p })),
      // Their order means nothing; a sortable chip is a button holding buttons (axe nested-interactive).
      admin: { isSortable: false },
    },
  ],
  timestamps: true,
}
