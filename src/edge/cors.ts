import { getConfig } from '../platform/config'

const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id, If-None-Match, If-Match'
/** What the extension reads from answers: 405's Allow, list estimates, throttling, caching, tracing. */
const EXPOSED_HEADERS = 'X-Request-Id, ETag, Retry-After, Allow, X-Total-Estimated'

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

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** `Access-Control-Allow-Methods` for the methods the routes use (upper case), plus OPTIONS. */
export function allowMethodsFor(methods: Iterable<string>): string {
  const used = new Set(methods)
  return [...METHOD_ORDER.filter((m) => used.has(m)), 'OPTIONS'].join(', ')
}

/**
 * The headers of a preflight answer (204): the grants for an allowed origin, none otherwise.
 * `allowMethods` comes from the route table (src/edge/router), so it never names a method no
 * route takes.
 */
export function preflightHeaders(origin: string | null, allowMethods: string): Record<string, string> {
  const headers: Record<string, string> = {}
  applyCors(headers, origin)
  if (allowedOrigin(origin)) {
    headers['Access-Control-Allow-Methods'] = allowMethods
    headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS
    headers['Access-Control-Max-Age'] = '600'
  }
  return headers
}
