import type { Endpoint } from 'payload'
import { match } from 'path-to-regexp'

import { ApiError } from '../errors'
import { preflightResponse } from '../http/cors'
import { API_PREFIX, type HttpMethod, type RouteSpec } from './route'
import { wrap } from './wrap'

const METHODS: HttpMethod[] = ['get', 'post', 'patch', 'put', 'delete']

/**
 * The /api/v1 surface as Payload root endpoints: every route wrapped in the envelope,
 * then CORS preflight for any path, then catch-alls so that unknown paths (404
 * `route.not_found`) and wrong methods (405 `route.method_not_allowed`) are enveloped too.
 */
export function apiEndpoints(routes: RouteSpec[]): Endpoint[] {
  const matchers = routes.map((r) => ({ method: r.method, test: match(r.path, { decode: decodeURIComponent }) }))

  const endpoints: Endpoint[] = routes.map((route) => ({
    method: route.method,
    path: `${API_PREFIX}${route.path}`,
    handler: wrap(route, `${route.method.toUpperCase()} /api${API_PREFIX}${route.path}`),
  }))

  endpoints.push({
    method: 'options',
    path: `${API_PREFIX}/:path*`,
    handler: async (req) => preflightResponse(req.headers.get('origin')),
  })

  for (const method of METHODS) {
    endpoints.push({
      method,
      path: `${API_PREFIX}/:path*`,
      handler: wrap(
        {
          handler: async (ctx) => {
            const rest = ctx.params.path
            const path = `/${Array.isArray(rest) ? rest.join('/') : (rest ?? '')}`.replace(/\/+$/, '') || '/'
            const allowed = [...new Set(matchers.filter((m) => m.test(path)).map((m) => m.method.toUpperCase()))]
            if (allowed.length > 0) {
              throw new ApiError(405, 'route.method_not_allowed', `${method.toUpperCase()} is not allowed here.`, { allowed }, {
                Allow: allowed.join(', '),
              })
            }
            throw new ApiError(404, 'route.not_found', `No route ${method.toUpperCase()} /api${API_PREFIX}${path}.`)
          },
        },
        `${method.toUpperCase()} /api${API_PREFIX}/*`,
      ),
    })
  }
  return endpoints
}
