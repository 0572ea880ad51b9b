/**
 * The admin console's custom endpoints (Payload collection endpoints under /api/<collection>)
 * on the same wrapper as /api/v1 (src/edge/wrap.ts): request id and `X-Request-Id`, the
 * envelope, the declared input parsed (`request`), the error mapping and the `request.completed`
 * line. Only the caller differs: the signed-in console user of Payload's session cookie,
 * whose permissions are those of its populated roles (access/userPermissions.ts).
 */
import { addDataAndFileToRequest, type Endpoint, type PayloadRequest } from 'payload'

import type { AuthMode, AuthUser } from '../../access/guards'
import { permissionsOf } from '../../access/userPermissions'
import { ApiError, validationFailed } from '../platform/errors'
import { apiRequestFromFetch, toResponse } from './fetchAdapter'
import type { ApiContext, ApiRequest, Reply, RouteInput, RouteRequest, RouteSpec } from './route'
import { readJson, wrap, type CallerOf } from './wrap'

/**
 * A console route: the parts of a RouteSpec the wrapper reads (the console's endpoints are not
 * in the /api/v1 OpenAPI document), its path below the collection (`/moderation/:id/approve`),
 * whose auth defaults to `required` (the console's actions need a signed-in user), and whose
 * handler also gets the Payload request, for what only Payload can do (start its session).
 */
export type ConsoleRouteSpec<R extends RouteRequest = RouteRequest> = Pick<RouteSpec, 'method' | 'path' | 'auth' | 'permissions' | 'before'> & {
  /** What it reads, parsed by the wrapper into the handler's input (as /api/v1's routes). */
  request?: R
  handler: (ctx: ApiContext<RouteInput<R>>, session: PayloadRequest) => Promise<Reply>
  /** Error envelopes also carry Payload's `errors: [{ message }]` (forms of Payload's own UI). */
  payloadFormErrors?: boolean
}

/** The session's user as the wrapper's caller; a missing session is 401 when sign-in is required. */
export function sessionCaller(req: PayloadRequest, mode: AuthMode): CallerOf {
  return async (): Promise<AuthUser | null> => {
    if (mode === 'none') return null
    if (!req.user) {
      if (mode === 'required') throw new ApiError(401, 'auth.missing_token', 'Sign in to the console first.')
      return null
    }
    return { id: String(req.user.id), permissions: permissionsOf(req) }
  }
}

/**
 * The body: JSON as on /api/v1, or the multipart form Payload's own admin forms send (the
 * document as JSON in its `_payload` field), read by Payload.
 */
function consoleBody(req: PayloadRequest): (api: ApiRequest, limit: number) => Promise<unknown> {
  return async (api, limit) => {
    if (!req.headers.get('content-type')?.includes('multipart/')) return readJson(api, limit)
    try {
      await addDataAndFileToRequest(req)
    } catch {
      throw validationFailed([{ field: '(body)', constraint: 'json' }], 'The form data is not valid.')
    }
    return req.data ?? {}
  }
}

function apiRequestOf(req: PayloadRequest): ApiRequest {
  // Payload hands endpoints the Fetch Request itself with its own properties added (typed partial).
  const { url, method } = req
  if (!url || !method || typeof req.text !== 'function') throw new Error('A console endpoint needs the Fetch Request Payload received.')
  return apiRequestFromFetch({ url, method, headers: req.headers, text: () => req.text!() }, req.payload)
}

/** A console endpoint on `collection` (the route's name in the log: `POST /api/<collection><path>`). */
export function consoleEndpoint<const R extends RouteRequest = Record<never, never>>(collection: string, spec: ConsoleRouteSpec<R>): Endpoint {
  const routeName = `${spec.method.toUpperCase()} /api/${collection}${spec.path}`
  const mode = spec.permissions?.length ? 'required' : (spec.auth ?? 'required')
  return {
    method: spec.method,
    path: spec.path,
    handler: async (req) => {
      const handle = wrap(
        {
          auth: mode,
          permissions: spec.permissions,
          before: spec.before,
          request: spec.request,
          handler: (ctx) => spec.handler(ctx as unknown as ApiContext<RouteInput<R>>, req),
        },
        routeName,
        { caller: sessionCaller(req, mode), cors: false, readBody: consoleBody(req), payloadFormErrors: spec.payloadFormErrors },
      )
      const params = Object.fromEntries(Object.entries(req.routeParams ?? {}).map(([k, v]) => [k, String(v)]))
      return toResponse(await handle(apiRequestOf(req), params))
    },
  }
}
