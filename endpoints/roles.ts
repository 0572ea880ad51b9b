import { z } from 'zod'

import { defineRoute, versioned } from '../src/edge/route'
import { PERMISSIONS } from '../src/auth/permissions'
import { grantorWith } from '../src/services/grants'
import { createRole, deleteRole, listRoles, requireRole, toRoleDto, updateRole } from '../src/services/roles'
import { TEXT_LIMITS, textField } from '../src/platform/text'
import { Deleted, RoleDto } from './dtos'

const MANAGE = ['role.manage'] as const

const createBody = z.strictObject({
  name: textField(TEXT_LIMITS.roleName, { min: 1, trim: true }),
  description: textField(TEXT_LIMITS.roleDescription).optional(),
  // Unknown permission strings are 400 validation.failed (constraint "enum").
  permissions: z.array(z.enum(PERMISSIONS)),
})
const updateBody = createBody.partial()

export const createRoleRoute = defineRoute({
  method: 'post',
  path: '/roles',
  summary: 'Create a role',
  request: { body: createBody },
  responses: { data: RoleDto, status: 201, errors: ['role.name_taken'] },
  permissions: MANAGE,
  handler: async (ctx) => ({ status: 201, data: await createRole(ctx.req.payload, ctx.input.body, grantorWith(ctx.user!.permissions)) }),
})

export const listRolesRoute = defineRoute({
  method: 'get',
  path: '/roles',
  summary: 'Every role',
  responses: { data: z.array(RoleDto) },
  permissions: MANAGE,
  handler: async (ctx) => ({ data: await listRoles(ctx.req.payload) }),
})

export const getRoleRoute = defineRoute({
  method: 'get',
  path: '/roles/:id',
  summary: 'One role',
  responses: { data: RoleDto, errors: ['role.not_found'], versioned: true },
  permissions: MANAGE,
  handler: async (ctx) => versioned(toRoleDto(await requireRole(ctx.req.payload, ctx.params.id!))),
})

export const updateRoleRoute = defineRoute({
  method: 'patch',
  path: '/roles/:id',
  summary: 'Update a role (partial)',
  request: { body: updateBody },
  responses: { data: RoleDto, errors: ['role.not_found', 'role.name_taken', 'role.protected'], versioned: true },
  permissions: MANAGE,
  handler: async (ctx) => versioned(await updateRole(ctx.req.payload, ctx.params.id!, ctx.input.body, grantorWith(ctx.user!.permissions), ctx.ifMatch)),
})

export const deleteRoleRoute = defineRoute({
  method: 'delete',
  path: '/roles/:id',
  summary: 'Delete a role no user holds',
  responses: { data: Deleted, errors: ['role.not_found', 'role.protected', 'role.in_use'] },
  permissions: MANAGE,
  handler: async (ctx) => ({ data: await deleteRole(ctx.req.payload, ctx.params.id!, grantorWith(ctx.user!.permissions)) }),
})

export const roleRoutes = [createRoleRoute, listRolesRoute, getRoleRoute, updateRoleRoute, deleteRoleRoute]
