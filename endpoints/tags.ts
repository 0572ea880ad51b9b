import { z } from 'zod'

import { defineRoute } from '../src/api/route'
import { parseWith } from '../src/api/validation'
import { parsePagination } from '../src/pagination'
import { getTag, listTags } from '../src/services/tags'
import { TEXT_LIMITS, textField } from '../src/text'
import { TagDto } from './dtos'
import { paginationQuery } from './queries'

const filters = z.object({
  facet: textField(TEXT_LIMITS.facetKey, { min: 1, trim: true }).optional(),
  q: textField(TEXT_LIMITS.tagQuery, { trim: true }).optional(),
})

export const listTagsRoute = defineRoute({
  method: 'get',
  path: '/tags',
  summary: 'List tags',
  request: { query: paginationQuery.extend(filters.shape) },
  responses: { data: z.array(TagDto), paginated: true, errors: ['pagination.invalid'] },
  handler: async ({ req, query }) => {
    const page = parsePagination(query)
    const f = parseWith(filters, { facet: query.get('facet') ?? undefined, q: query.get('q') ?? undefined })
    return listTags(req.payload, { ...page, facet: f.facet, q: f.q || undefined })
  },
})

export const getTagRoute = defineRoute({
  method: 'get',
  path: '/tags/:slug',
  summary: 'One tag with its usage count',
  responses: { data: TagDto, errors: ['tag.not_found'] },
  handler: async ({ req, params }) => ({ data: await getTag(req.payload, params.slug!) }),
})
