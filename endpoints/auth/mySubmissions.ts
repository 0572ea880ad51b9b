import { z } from 'zod'

import { defineRoute } from '../../src/edge/route'
import { listOwnSubmissions } from '../../src/services/contentBySubmitter'
import { ContentDto } from '../dtos'
import { paginationQuery } from '../queries'

/** GET /auth/me/submissions: the caller's own items, every status, newest first, paginated like /content. */
export const mySubmissions = defineRoute({
  method: 'get',
  path: '/auth/me/submissions',
  auth: 'required',
  summary: "The caller's own submissions, every status, newest first (with rejectionReason)",
  request: { query: paginationQuery },
  responses: { data: z.array(ContentDto), paginated: true, errors: ['pagination.invalid'] },
  handler: async (ctx) => listOwnSubmissions(ctx.req.payload, ctx.user!, ctx.input.query),
})
