import type { PayloadHandler, PayloadRequest } from 'payload'

import { authenticate } from '../../access/guards'
import { getConfig } from '../config'
import { ApiError, validationFailed } from '../errors'
import { applyCors } from '../http/cors'
import { etagMatches } from '../http/etag'
import { withFields } from '../logging'
import { clientIp } from './clientIp'
import { requestIdFrom } from './requestId'
import type { ApiContext, Reply, RouteSpec } from './route'
import { requirePermissions } from '../../access/guards'

type ErrorBody = { code: string; message: string; details?: unknown }

function errorOf(err: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (err instanceof ApiError) {
    const body: ErrorBody = { code: err.code, message: err.message }
    if (err.details !== undefined) body.details = err.details
    return { status: err.status, body, headers: err.headers }
  }
  const body: ErrorBody = { code: 'internal.error', message: 'An unexpected error occurred.' }
  if (!getConfig().isProduction && err instanceof Error) body.details = { name: err.name, message: err.message }
  return { status: 500, body }
}

async function readJson(req: PayloadRequest): Promise<unknown> {
  const text = req.text ? await req.text() : ''
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch {
    throw validationFailed([{ field: '(body)', constraint: 'json' }], 'The request body is not valid JSON.')
  }
}

/**
 * Turns a route into a Payload endpoint handler. This is the one place that builds the
 * envelope, echoes the request id, applies CORS and caching headers, maps errors, and
 * writes the `request.completed` log line.
 */
export function wrap(spec: Pick<RouteSpec, 'auth' | 'permissions' | 'before' | 'handler'>, routeName: string): PayloadHandler {
  return async (req: PayloadRequest) => {
    const started = performance.now()
    const requestId = requestIdFrom(req.headers)
    const log = withFields({ requestId, route: routeName })
    const headers = new Headers({ 'X-Request-Id': requestId })
    let userId: string | undefined
    let status = 200
    let response: Response
    let bodyPromise: Promise<unknown> | undefined

    try {
      const mode = spec.permissions?.length ? 'required' : (spec.auth ?? 'none')
      const user = await authenticate(req.headers, mode)
      userId = user?.id
      requirePermissions(user, spec.permissions ?? [])
      const ctx: ApiContext = {
        req,
        requestId,
        params: (req.routeParams ?? {}) as Record<string, string>,
        query: new URL(req.url!).searchParams,
        user,
        ip: clientIp(req.headers),
        log,
        body: () => (bodyPromise ??= readJson(req)),
      }
      if (spec.before) await spec.before(ctx)
      const reply: Reply = await spec.handler(ctx)
      status = reply.status ?? 200
      for (const [k, v] of Object.entries(reply.headers ?? {})) headers.set(k, v)
      headers.set('Cache-Control', reply.cacheControl ?? 'no-store')
      if (reply.etag) {
        headers.set('ETag', reply.etag)
        if (etagMatches(req.headers.get('if-none-match'), reply.etag)) status = 304
      }
      const envelope: Record<string, unknown> = { success: true, data: reply.data ?? null }
      if (reply.pagination) envelope.pagination = reply.pagination
      envelope.meta = { requestId, durationMs: Math.round(performance.now() - started) }
      if (status === 304) {
        response = new Response(null, { status, headers })
      } else {
        headers.set('Content-Type', 'application/json; charset=utf-8')
        response = new Response(JSON.stringify(envelope), { status, headers })
      }
    } catch (err) {
      const mapped = errorOf(err)
      status = mapped.status
      for (const [k, v] of Object.entries(mapped.headers ?? {})) headers.set(k, v)
      headers.set('Cache-Control', 'no-store')
      headers.set('Content-Type', 'application/json; charset=utf-8')
      if (status >= 500) log.error({ err, userId }, 'request.failed')
      response = new Response(
        JSON.stringify({ success: false, error: mapped.body, meta: { requestId } }),
        { status, headers },
      )
    }
    applyCors(response.headers, req.headers.get('origin'))
    const durationMs = Math.round(performance.now() - started)
    const level = status >= 500 ? 'error' : status === 429 ? 'warn' : 'info'
    log[level]({ userId, statusCode: status, durationMs }, 'request.completed')
    return response
  }
}
