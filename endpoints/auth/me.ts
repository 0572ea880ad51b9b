import { defineRoute } from '../../src/edge/route'
import { me as currentUser } from '../../src/services/auth'
import { Me } from '../dtos'

/** GET /auth/me: `{ user, permissions }`, permissions being the effective sorted list. */
export const me = defineRoute({
  method: 'get',
  path: '/auth/me',
  summary: 'The caller and their effective permissions',
  responses: { data: Me, errors: ['user.not_found'] },
  auth: 'required',
  handler: async (ctx) => ({ data: await currentUser(ctx.req.payload, ctx.user!.id) }),
})
