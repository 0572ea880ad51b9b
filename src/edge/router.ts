import { match, type MatchFunction } from 'path-to-regexp'

import { ApiError } from '../platform/errors'
import { allowMethodsFor, preflightHeaders } from './cors'
import { logRequestCompleted } from '../platform/logging'
import { observeRequest } from '../platform/metrics'
import { requestIdFrom } from './requestId'
import { API_PREFIX, type ApiRequest, type ApiResult, bodyLength, type RouteSpec } from './route'
import { wrap, type ApiHandler } from './wrap'

/** Routes a request below /api to its handler; anything outside API_PREFIX is the caller's to route. */
export type ApiDispatcher = (req: ApiRequest) => Promise<ApiResult>

type Compiled = { method: string; match: MatchFunction<Record<string, string>>; handler: ApiHandler }

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'])

/** The parameters when the route matches; a malformed percent-escape matches nothing. */
function matchOf(c: Compiled, path: string): Record<string, string> | undefined {
  try {
    const found = c.match(path)
    return found ? found.params : undefined
  } catch {
    return undefined
  }
}

/**
 * The /api/v1 surface: every route compiled once and wrapped in the envelope, a CORS
 * preflight answer for any path (allowing exactly the methods the routes use), and enveloped 404 `route.not_found` / 405
 * `route.method_not_allowed` (with `Allow`) for everything else.
 */
export function createDispatcher(routes: RouteSpec[]): ApiDispatcher {
  const compiled: Compiled[] = routes.map((route) => ({
    method: route.method.toUpperCase(),
    match: match<Record<string, string>>(route.path, { decode: decodeURIComponent }),
    handler: wrap(route, `${route.method.toUpperCase()} /api${API_PREFIX}${route.path}`),
  }))

  // Every GET route answers HEAD too (the same handler; the answer without its body).
  const allowMethods = allowMethodsFor(compiled.flatMap((c) => (c.method === 'GET' ? ['GET', 'HEAD'] : [c.method])))
  const preflight = preflightAnswer(allowMethods)

  const fallbacks = new Map<string, ApiHandler>()
  const fallbackFor = (method: string): ApiHandler => {
    const name = KNOWN_METHODS.has(method) ? method : '*'
    let handler = fallbacks.get(name)
    if (!handler) {
      handler = wrap(
        {
          handler: async ({ params }) => {
            const path = params.path!
            const allowed = [...new Set(compiled.filter((c) => matchOf(c, path)).flatMap((c) => (c.method === 'GET' ? ['GET', 'HEAD'] : [c.method])))]
            if (allowed.length > 0) {
              throw new ApiError(405, 'route.method_not_allowed', `${method} is not allowed here.`, { allowed }, {
                Allow: allowed.join(', '),
              })
            }
            throw new ApiError(404, 'route.not_found', `No route ${method} /api${API_PREFIX}${path}.`)
          },
        },
        `${name} /api${API_PREFIX}/*`,
      )
      fallbacks.set(name, handler)
    }
    return handler
  }

  // A path without parameters is found by one lookup, when no route before it also matches it.
  const exact = new Map<string, Compiled>()
  compiled.forEach((c, i) => {
    const path = routes[i]!.path
    if (/[:*{(]/.test(path)) return
    const earlier = compiled.slice(0, i).some((e) => e.method === c.method && matchOf(e, path))
    if (!earlier && !exact.has(`${c.method} ${path}`)) exact.set(`${c.method} ${path}`, c)
  })

  return async (req) => {
    const path = withoutTrailingSlashes(req.path.slice(API_PREFIX.length))
    if (req.method === 'OPTIONS') return preflight(req)
    const head = req.method === 'HEAD'
    const method = head ? 'GET' : req.method
    const known = exact.get(`${method} ${path}`)
    if (known) return head ? withoutBody(await known.handler(req, {})) : known.handler(req, {})
    for (const c of compiled) {
      if (c.method !== method) continue
      const params = matchOf(c, path)
      if (params) return head ? withoutBody(await c.handler(req, params)) : c.handler(req, params)
    }
    return fallbackFor(req.method)(req, { path })
  }
}

/** `/content//` is `/content`; the root stays `/`. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length
  while (end > 0 && path.charCodeAt(end - 1) === 47 /* / */) end -= 1
  return end === 0 ? '/' : end === path.length ? path : path.slice(0, end)
}

/** A HEAD answer: the GET answer's status and headers (Content-Length of its body included), no body. */
function withoutBody(result: ApiResult): ApiResult {
  if (result.body === null) return result
  return { ...result, headers: { ...result.headers, 'Content-Length': String(bodyLength(result.body)) }, body: null }
}

const PREFLIGHT_ROUTE = `OPTIONS /api${API_PREFIX}/*`

/**
 * A preflight: 204 with no body and no authentication, so it skips the envelope wrapper, but
 * it echoes the request id and writes its `request.completed` line like every other request.
 */
function preflightAnswer(allowMethods: string): (req: ApiRequest) => ApiResult {
  return (req) => {
    const started = performance.now()
    const requestId = requestIdFrom(req.headers)
    const headers = { 'X-Request-Id': requestId, ...preflightHeaders(req.headers.get('origin'), allowMethods) }
    const elapsed = performance.now() - started
    observeRequest(PREFLIGHT_ROUTE, 204, elapsed)
    logRequestCompleted('info', { requestId, route: PREFLIGHT_ROUTE, userId: undefined, statusCode: 204, durationMs: Math.round(elapsed) })
    return { status: 204, headers, body: null }
  }
}
