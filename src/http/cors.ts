import { getConfig } from '../config'

const ALLOWED_METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS'
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id, If-None-Match'
const EXPOSED_HEADERS = 'X-Request-Id, ETag, Retry-After'

/** The allowed origin to echo, or null. Credentials are never allowed: the API sets no cookies. */
export function allowedOrigin(origin: string | null): string | null {
  if (!origin) return null
  return getConfig().corsAllowedOrigins.includes(origin) ? origin : null
}

/** CORS headers for an ordinary response under /api/v1. */
export function applyCors(headers: Headers, origin: string | null): void {
  headers.append('Vary', 'Origin')
  const allowed = allowedOrigin(origin)
  if (!allowed) return
  headers.set('Access-Control-Allow-Origin', allowed)
  headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS)
}

/** The answer to a preflight: 204 with the grants for an allowed origin, a bare 204 otherwise. */
export function preflightResponse(origin: string | null): Response {
  const headers = new Headers()
  applyCors(headers, origin)
  if (allowedOrigin(origin)) {
    headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS)
    headers.set('Access-Control-Allow-Headers', ALLOWED_HEADERS)
    headers.set('Access-Control-Max-Age', '600')
  }
  return new Response(null, { status: 204, headers })
}
