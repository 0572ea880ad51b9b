import { defineRoute } from '../src/edge/route'
import { catalogAnswer } from '../src/services/catalog'
import { PUBLIC_CACHE } from './meta'
import { CatalogRecord } from './dtos'

/** GET /catalog: the taxonomy tree; the wrapper answers 304 when If-None-Match matches. */
export const catalog = defineRoute({
  method: 'get',
  path: '/catalog',
  summary: 'The taxonomy tree',
  responses: { data: CatalogRecord, cached: true },
  handler: async ({ req }) => {
    const answer = await catalogAnswer(req.payload)
    return { serialized: answer, etag: answer.etag, cacheControl: PUBLIC_CACHE }
  },
})
