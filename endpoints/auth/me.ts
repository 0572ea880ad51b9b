import { defineRoute } from '../../src/api/route'
import { me as currentUser } from '../../src/services/auth'

/** GET /auth/me: `{ user, permissions }`, permissions being the effective sorted list. */
export const me = defineRoute({
  method: 'get',
  path: '/auth/me',
  auth: 'required',
  handler: async (ctx) => ({ data: await currentUser(ctx.req.payload, ctx.user!.id) }),
})
