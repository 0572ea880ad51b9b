import { z } from 'zod'

import { defineRoute } from '../src/edge/route'
import { getVersionedTag, listTags } from '../src/services/tags'
import { TagDto } from './dtos'
import { listTagsQuery } from './queries'

export const listTagsRoute = defineRoute({
  method: 'get',
  path: '/tags',
  summary: 'List tags',
  request: { query: listTagsQuery },
  responses: { data: z.array(TagDto), paginated: true, errors: ['pagination.invalid'] },
  handler: async ({ req, input }) => listTags(req.payload, input.query),
})

export const getTagRoute = defineRoute({
  method: 'get',
  path: '/tags/:slug',
  summary: 'One tag with its usage count',
  responses: { data: TagDto, errors: ['tag.not_found'], versioned: true },
  handler: async ({ req, params }) => {
    const { tag, version } = await getVersionedTag(req.payload, params.slug!)
    return { data: tag, version }
  },
})
