import { createHash } from 'node:crypto'

/**
 * A weak entity tag over a serialized payload. A platform utility, not HTTP code: the catalog
 * service stamps its cached record with one (the spec puts `etag` in the body), and the HTTP
 * edge compares it with If-None-Match (src/edge/etag.ts).
 */
export function weakEtag(serialized: string): string {
  return `W/"${createHash('sha1').update(serialized).digest('base64url')}"`
}
