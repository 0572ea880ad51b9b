import { defineRoute } from '../src/api/route'
import { getContent, listContent, relatedContent } from '../src/services/content'
import { parseListQuery } from '../src/services/contentQuery'

export const listContentRoute = defineRoute({
  method: 'get',
  path: '/content',
  auth: 'optional',
  handler: async ({ req, query, user }) => {
    const { data, pagination, estimated } = await listContent(req.payload, parseListQuery(query), user)
    return { data, pagination, headers: estimated ? { 'X-Total-Estimated': 'true' } : undefined }
  },
})

export const getContentRoute = defineRoute({
  method: 'get',
  path: '/content/:slug',
  auth: 'optional',
  handler: async ({ req, params, user }) => ({ data: await getContent(req.payload, params.slug!, user) }),
})

export const relatedContentRoute = defineRoute({
  method: 'get',
  path: '/content/:slug/related',
  auth: 'optional',
  handler: async ({ req, params, user }) => ({ data: await relatedContent(req.payload, params.slug!, user) }),
})
