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
export function applyCors(headers: Record<string, string>, origin: string | null): void {
  headers.Vary = headers.Vary ? `${headers.Vary}, Origin` : 'Origin'
  const allowed = allowedOrigin(origin)
  if (!allowed) return
  headers['Access-Control-Allow-Origin'] = allowed
  headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS
}

/** The headers of a preflight answer (204): the grants for an allowed origin, none otherwise. */
export function preflightHeaders(origin: string | null): Record<string, string> {
  const headers: Record<string, string> = {}
  applyCors(headers, origin)
  if (allowedOrigin(origin)) {
    headers['Access-Control-Allow-Methods'] = ALLOWED_METHODS
    headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS
    headers['Access-Control-Max-Age'] = '600'
  }
  return headers
}
