import { z } from 'zod'

import { defineRoute } from '../src/edge/route'
import { contentAnswer, listContentAnswer, relatedContent } from '../src/services/content'
import { ContentDto } from './dtos'
import { listContentQuery } from './queries'

export const listContentRoute = defineRoute({
  method: 'get',
  path: '/content',
  summary: 'List content (approved only unless the caller may moderate)',
  // Each parameter's own rule refuses control characters, with its constraint.
  request: { query: listContentQuery, queryOptions: { controlCharacters: false } },
  responses: {
    data: z.array(ContentDto),
    paginated: true,
    errors: ['pagination.invalid', 'sort.unsupported', 'query.too_short', 'validation.failed', 'auth.forbidden'],
    headers: { 'X-Total-Estimated': '`true` when pagination.total is an estimate (`estimate=true` on a large collection).' },
  },
  auth: 'optional',
  handler: async ({ req, user, input }) => {
    const { answer, estimated } = await listContentAnswer(req.payload, input.query, user)
    return { serialized: answer, headers: estimated ? { 'X-Total-Estimated': 'true' } : undefined }
  },
})

export const getContentRoute = defineRoute({
  method: 'get',
  path: '/content/:slug',
  summary: 'One content item',
  responses: { data: ContentDto, errors: ['content.not_found'] },
  auth: 'optional',
  handler: async ({ req, params, user }) => ({ serialized: await contentAnswer(req.payload, params.slug!, user) }),
})

export const relatedContentRoute = defineRoute({
  method: 'get',
  path: '/content/:slug/related',
  summary: 'Related items, ranked (not paginated, fixed cap)',
  responses: { data: z.array(ContentDto), errors: ['content.not_found'] },
  auth: 'optional',
  handler: async ({ req, params, user }) => ({ data: await relatedContent(req.payload, params.slug!, user) }),
})
