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
    const { answer, hostDependent } = await brandingAnswer(req.payload, req.origin)
    // Links built from the addressed host (no public URL set) differ per host and scheme.
    const headers = hostDependent ? { Vary: 'Accept-Encoding, Host, X-Forwarded-Proto' } : undefined
    return { serialized: answer, etag: answer.etag, cacheControl: PUBLIC_CACHE, headers }
  },
})
