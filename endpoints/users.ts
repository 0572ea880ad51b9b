import { z } from 'zod'

import { defineRoute, versioned } from '../src/edge/route'
import { grantorWith } from '../src/services/grants'
import { createUser, deactivateUser, listUsers, requireUser, toUserDto, updateUser } from '../src/services/users'
import { createUserBody as createBody, updateUserBody as updateBody } from '../src/services/requestBodies'
import { Deleted, UserDto } from './dtos'
import { paginationQuery } from './queries'

const MANAGE = ['user.manage'] as const

export const createUserRoute = defineRoute({
  method: 'post',
  path: '/users',
  summary: 'Create a user',
  request: { body: createBody },
  responses: { data: UserDto, status: 201, errors: ['user.email_taken', 'user.username_taken', 'role.not_found'] },
  permissions: MANAGE,
  handler: async (ctx) => {
    const input = ctx.input.body
    return { status: 201, data: toUserDto(await createUser(ctx.req.payload, input, grantorWith(ctx.user!.permissions))) }
  },
})

export const listUsersRoute = defineRoute({
  method: 'get',
  path: '/users',
  summary: 'List users',
  request: { query: paginationQuery },
  responses: { data: z.array(UserDto), paginated: true, errors: ['pagination.invalid'] },
  permissions: MANAGE,
  handler: async (ctx) => {
    const { docs, pagination } = await listUsers(ctx.req.payload, ctx.input.query)
    return { data: docs.map(toUserDto), pagination }
  },
})

export const getUserRoute = defineRoute({
  method: 'get',
  path: '/users/:id',
  summary: 'One user',
  responses: { data: UserDto, errors: ['user.not_found'], versioned: true },
  permissions: MANAGE,
  handler: async (ctx) => versioned(toUserDto(await requireUser(ctx.req.payload, ctx.params.id!))),
})

export const updateUserRoute = defineRoute({
  method: 'patch',
  path: '/users/:id',
  summary: 'Update a user (partial)',
  request: { body: updateBody },
  responses: { data: UserDto, errors: ['user.not_found', 'user.email_taken', 'user.username_taken', 'role.not_found', 'user.last_holder'], versioned: true },
  permissions: MANAGE,
  handler: async (ctx) => {
    const patch = ctx.input.body
    return versioned(toUserDto(await updateUser(ctx.req.payload, ctx.params.id!, patch, grantorWith(ctx.user!.permissions), ctx.ifMatch)))
  },
})

/** DELETE deactivates (isActive=false, refresh tokens revoked); users are never removed. */
export const deleteUserRoute = defineRoute({
  method: 'delete',
  path: '/users/:id',
  summary: 'Deactivate a user (refresh tokens revoked; never removed)',
  responses: { data: Deleted, errors: ['user.not_found', 'user.last_holder'] },
  permissions: MANAGE,
  handler: async (ctx) => ({ data: await deactivateUser(ctx.req.payload, ctx.params.id!, grantorWith(ctx.user!.permissions)) }),
})

export const userRoutes = [createUserRoute, listUsersRoute, getUserRoute, updateUserRoute, deleteUserRoute]
