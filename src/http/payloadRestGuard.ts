/**
 * Payload's own REST routes (Next's `api/[...slug]` route; both serving paths use it) answer
 * some malformed requests with a 500. Those are refused here first, each with the status that
 * says what is wrong, never a 5xx:
 * - `limit`, `page` or `depth` that is not a small whole number (`limit=1e309`): 400;
 * - the versions routes of a collection or global without versions: 404;
 * - `/api/<auth collection>/verify/...` where email verification is off: 404;
 * - an upload's file that is not on disk (a media record whose file is gone): 404;
 * and a body nested deeper than MAX_JSON_DEPTH (a JSON body or a multipart form's `_payload`
 * field), before Payload parses or deep-copies it (a stack overflow): 400 `validation.failed`. The answer carries both Payload's shape
 * (`errors: [{ message }]`, which the admin panel reads) and the API's envelope fields.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'

import type { SanitizedConfig } from 'payload'

import { fastUlid } from '../api/requestId'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './jsonDepth'

export type RouteHandler<C> = (request: Request, context: C) => Promise<Response>

const NUMBER_LIMITS: Record<string, { min: number; max: number }> = {
  limit: { min: 0, max: 10_000 },
  page: { min: 1, max: 1_000_000 },
  depth: { min: 0, max: 10 },
}

type Refusal = { status: 400 | 404; code: string; message: string; details?: unknown }

export function refusalResponse({ status, code, message, details }: Refusal): Response {
  const requestId = `req_${fastUlid()}`
  const body = { errors: [{ message }], success: false, error: { code, message, ...(details ? { details } : {}) }, meta: { requestId } }
  return Response.json(body, { status, headers: { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' } })
}

const notFound = (what: string): Refusal => ({ status: 404, code: 'route.not_found', message: `${what} not found.` })

/** Why Payload must not see this request, or null. */
export function restRefusal(config: SanitizedConfig, method: string, url: URL): Refusal | null {
  for (const [name, { min, max }] of Object.entries(NUMBER_LIMITS)) {
    const raw = url.searchParams.get(name)
    if (raw === null) continue
    const value = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN
    if (!(value >= min && value <= max)) {
      return {
        status: 400,
        code: 'validation.failed',
        message: `${name} must be a whole number from ${min} to ${max}.`,
        details: [{ field: name, constraint: 'type', value: raw }],
      }
    }
  }
  const [api, first, second, third] = url.pathname.split('/').filter(Boolean)
  if (api !== 'api' || !first) return null
  if (first === 'globals') {
    const global = config.globals.find((g) => g.slug === second)
    if (global && third === 'versions' && !global.versions) return notFound('Versions')
    return null
  }
  const collection = config.collections.find((c) => c.slug === first)
  if (!collection) return null
  if (second === 'versions' && !collection.versions) return notFound('Versions')
  if (second === 'verify' && !(collection.auth && collection.auth.verify)) return notFound('Verification')
  if (second === 'file' && third && collection.upload && (method === 'GET' || method === 'HEAD')) {
    const staticDir = collection.upload.staticDir ?? collection.slug
    const file = path.resolve(staticDir, decodeURIComponent(third))
    if (!file.startsWith(path.resolve(staticDir) + path.sep) || !existsSync(file)) return notFound('File')
  }
  return null
}

/** The JSON text a body carries for Payload: the whole body, or a form's `_payload` field. */
async function jsonTextOf(request: Request): Promise<string | undefined> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? ''
  if (request.body === null) return undefined
  if (type.includes('multipart/form-data')) {
    // A malformed form is Payload's to refuse; only a readable _payload is checked here.
    const form = await request.clone().formData().catch(() => undefined)
    const field = form?.get('_payload')
    return typeof field === 'string' ? field : undefined
  }
  if (type.includes('json') || type === '' || type.includes('text/plain')) return request.clone().text()
  return undefined
}

export function refuseDeepBodies<C>(handler: RouteHandler<C>): RouteHandler<C> {
  return async (request, context) => {
    const text = await jsonTextOf(request)
    if (text === undefined || !nestsDeeperThan(text)) return handler(request, context)
    return refusalResponse({
      status: 400,
      code: 'validation.failed',
      message: `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
      details: [{ field: '(body)', constraint: 'max_depth' }],
    })
  }
}

/** Wraps one of Payload's REST handlers. */
export function guardPayloadRest<C>(config: Promise<SanitizedConfig> | SanitizedConfig, handler: RouteHandler<C>): RouteHandler<C> {
  const guarded = refuseDeepBodies(handler)
  return async (request, context) => {
    let refusal: Refusal | null
    try {
      refusal = restRefusal(await config, request.method, new URL(request.url))
    } catch {
      // A malformed percent-escape in the path: no such route.
      refusal = notFound('Route')
    }
    return refusal ? refusalResponse(refusal) : guarded(request, context)
  }
}
