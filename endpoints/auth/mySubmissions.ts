import { defineRoute } from '../../src/api/route'
import { listOwnSubmissions } from '../../src/services/contentBySubmitter'
import { parsePagination } from '../../src/services/contentQuery'

/** GET /auth/me/submissions: the caller's own items, every status, newest first, paginated like /content. */
export const mySubmissions = defineRoute({
  method: 'get',
  path: '/auth/me/submissions',
  auth: 'required',
  handler: async (ctx) => listOwnSubmissions(ctx.req.payload, ctx.user!, parsePagination(ctx.query)),
})
