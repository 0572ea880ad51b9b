import { z } from 'zod'

import { defineRoute } from '../src/api/route'
import { parseWith } from '../src/api/validation'
import { parsePagination } from '../src/services/contentQuery'
import { getTag, listTags } from '../src/services/tags'
import { TEXT_LIMITS, textField } from '../src/text'

const filters = z.object({
  facet: textField(TEXT_LIMITS.facetKey, { min: 1, trim: true }).optional(),
  q: textField(TEXT_LIMITS.tagQuery, { trim: true }).optional(),
})

export const listTagsRoute = defineRoute({
  method: 'get',
  path: '/tags',
  handler: async ({ req, query }) => {
    const page = parsePagination(query)
    const f = parseWith(filters, { facet: query.get('facet') ?? undefined, q: query.get('q') ?? undefined })
    return listTags(req.payload, { ...page, facet: f.facet, q: f.q || undefined })
  },
})

export const getTagRoute = defineRoute({
  method: 'get',
  path: '/tags/:slug',
  handler: async ({ req, params }) => ({ data: await getTag(req.payload, params.slug!) }),
})
