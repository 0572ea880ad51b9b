import { defineRoute } from '../src/api/route'
import { weakEtag } from '../src/entityTag'
import { brandingRecord } from '../src/services/branding'
import { BrandingRecord } from './dtos'

export const PUBLIC_CACHE = 'public, max-age=300, must-revalidate'

export const meta = defineRoute({
  method: 'get',
  path: '/meta',
  summary: 'The branding record',
  responses: { data: BrandingRecord, cached: true },
  handler: async ({ req }) => {
    const data = await brandingRecord(req.payload, req.origin)
    return { data, etag: weakEtag(JSON.stringify(data)), cacheControl: PUBLIC_CACHE }
  },
})
