import { defineRoute } from '../src/edge/route'
import { brandingAnswer } from '../src/services/branding'
import { BrandingRecord } from './dtos'

export const PUBLIC_CACHE = 'public, max-age=300, must-revalidate'

export const meta = defineRoute({
  method: 'get',
  path: '/meta',
  summary: 'The branding record',
  responses: { data: BrandingRecord, cached: true },
  handler: async ({ req }) => {
    const answer = await brandingAnswer(req.payload, req.origin)
    return { serialized: answer, etag: answer.etag, cacheControl: PUBLIC_CACHE }
  },
})
