/**
 * Payload's own REST routes (Next's `api/[...slug]` route; both serving paths use it). A
 * cookie-authenticated write from another origin is refused first (403, ./crossOrigin). Payload
 * answers some malformed requests with a 500. Those are refused here next, each with the status
 * that says what is wrong, never a 5xx:
 * - `limit`, `page` or `depth` that is not a small whole number (`limit=1e309`): 400;
 * - a `where` or `sort` through a hidden field, or comparing a date with text that is no
 *   date (./payloadQueryChecks): 400;
 * - the versions routes of a collection or global without versions: 404;
 * - `/api/<auth collection>/verify/...` where email verification is off: 404;
 * - an upload's file that is not on disk (a media record whose file is gone): 404;
 * - a body Payload cannot read where it reads one (not JSON, not an object, a broken form, a
 *   file name with control characters, a document write without a body), or nested deeper than MAX_JSON_DEPTH (a JSON body or a
 *   multipart form's `_payload`; before Payload parses or deep-copies it): 400;
 * - a route Payload does not serve (its 501 "Cannot GET"), a preference that does not exist
 *   on DELETE (Payload's adapter fails building that query): 404. The answer carries both Payload's shape
 * (`errors: [{ message }]`, which the admin panel reads) and the API's envelope fields.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'

import { getPayload, type SanitizedConfig } from 'payload'

import { FILE_NAME_PROBLEM, unsafeFileName } from '../platform/media/uploadChecks'
import { CROSS_ORIGIN, isCrossOriginWrite } from './crossOrigin'
import { queryRefusal } from './payloadQueryChecks'
import { type Refusal, refusalResponse } from './refusal'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './jsonDepth'

export type RouteHandler<C> = (request: Request, context: C) => Promise<Response>

const NUMBER_LIMITS: Record<string, { min: number; max: number }> = {
  limit: { min: 0, max: 10_000 },
  page: { min: 1, max: 1_000_000 },
  depth: { min: 0, max: 10 },
}

const notFound = (what: string): Refusal => ({ status: 404, code: 'route.not_found', message: `${what} not found.` })

/** Why Payload must not see this request, or null. */
export function restRefusal(config: SanitizedConfig, method: string, url: URL): Refusal | null {
  try {
    decodeURIComponent(url.pathname)
  } catch {
    return notFound('Route')
  }
  for (const [name, { min, max }] of Object.entries(NUMBER_LIMITS)) {
    const all = url.searchParams.getAll(name)
    if (all.length === 0) continue
    const raw = all.join(',')
    const value = all.length === 1 && /^\d{1,7}$/.test(raw) ? Number(raw) : NaN
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
  const query = queryRefusal(config, collection.slug, url.search)
  if (query) return query
  if (second === 'versions' && !collection.versions) return notFound('Versions')
  if (second === 'verify' && !(collection.auth && collection.auth.verify)) return notFound('Verification')
  if (second === 'file' && third && collection.upload && (method === 'GET' || method === 'HEAD')) {
    const staticDir = collection.upload.staticDir ?? collection.slug
    const file = path.resolve(staticDir, decodeURIComponent(third))
    if (!file.startsWith(path.resolve(staticDir) + path.sep) || !existsSync(file)) return notFound('File')
  }
  return null
}

const badBody = (constraint: string, message: string): Refusal => ({
  status: 400,
  code: 'validation.failed',
  message,
  details: [{ field: '(body)', constraint }],
})

const TOO_DEEP = badBody('max_depth', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`)

/** A create or update of a document (or a global): its body must be the document, a JSON object. */
function isDocumentWrite(method: string, url: URL): boolean {
  const parts = url.pathname.split('/').filter(Boolean)
  if (parts[1] === 'globals') return method === 'POST' && parts.length === 3
  if (method === 'POST') return parts.length === 2
  return (method === 'PATCH' || method === 'PUT') && (parts.length === 2 || parts.length === 3)
}

/**
 * What Payload would fail on with a 500: a form it cannot read, a body that is not JSON (or
 * not an object) where Payload reads one, a document write with no body, JSON nested too deep.
 */
export async function bodyRefusal(request: Request): Promise<Refusal | null> {
  const method = request.method
  if (method !== 'POST' && method !== 'PATCH' && method !== 'PUT') return null
  const url = new URL(request.url)
  const type = request.headers.get('content-type')?.toLowerCase() ?? ''
  let json: string
  if (type.startsWith('multipart/form-data')) {
    const form = await request.clone().formData().catch(() => null)
    if (!form) return badBody('multipart', 'The form data is not valid multipart.')
    // Payload's own parser fails on such a part header with a 500.
    for (const [, value] of form) {
      if (typeof value !== 'string' && unsafeFileName(value.name)) {
        return { status: 400, code: 'validation.failed', message: FILE_NAME_PROBLEM, details: [{ field: 'filename', constraint: 'control_characters' }] }
      }
    }
    const field = form.get('_payload')
    if (typeof field !== 'string') return null
    json = field
  } else {
    const text = request.body === null ? '' : await request.clone().text()
    if (text.trim() === '') return isDocumentWrite(method, url) ? badBody('required', 'The request needs a JSON body.') : null
    if (!type.includes('json')) return badBody('content_type', 'The request body must be JSON (Content-Type: application/json).')
    json = text
  }
  if (nestsDeeperThan(json)) return TOO_DEEP
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return badBody('json', 'The request body is not valid JSON.')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return badBody('type', 'The request body must be a JSON object.')
  return null
}

const PREFERENCE = /^\/api\/payload-preferences\/([^/]+)$/

/**
 * Deleting a preference that does not exist: Payload's SQLite adapter fails building the
 * not-found query (a 500); looked up first, it is the 404 Payload means to answer.
 */
async function missingPreference(config: SanitizedConfig, request: Request, url: URL): Promise<Refusal | null> {
  const key = request.method === 'DELETE' ? PREFERENCE.exec(url.pathname)?.[1] : undefined
  if (key === undefined) return null
  const payload = await getPayload({ config })
  const { user } = await payload.auth({ headers: request.headers })
  if (!user) return null
  const found = await payload.count({
    collection: 'payload-preferences',
    where: { and: [{ key: { equals: decodeURIComponent(key) } }, { 'user.value': { equals: user.id } }] },
    overrideAccess: true,
  })
  return found.totalDocs === 0 ? notFound('Preference') : null
}

/**
 * Payload's method-override read (its admin panel's relationship options, list filters: `POST`
 * with `X-Payload-HTTP-Method-Override: GET` and the query as a form body) as the GET it stands
 * for, so that it meets the same checks and Payload sees the same request; any other request as
 * it is. Payload does the same turn (handleEndpoints) after these checks would have run.
 */
async function asRead(request: Request): Promise<Request> {
  if (request.method !== 'POST') return request
  const override = request.headers.get('x-payload-http-method-override') ?? request.headers.get('x-http-method-override')
  const type = request.headers.get('content-type')?.toLowerCase() ?? ''
  if (override !== 'GET' || !type.startsWith('application/x-www-form-urlencoded')) return request
  const url = new URL(request.url)
  const body = new URLSearchParams(await request.text())
  for (const [name, value] of body) url.searchParams.append(name, value)
  const headers = new Headers(request.headers)
  for (const name of ['content-type', 'content-length', 'x-payload-http-method-override', 'x-http-method-override']) headers.delete(name)
  return new Request(url, { method: 'GET', headers, signal: request.signal })
}

/** Wraps one of Payload's REST handlers. */
export function guardPayloadRest<C>(config: Promise<SanitizedConfig> | SanitizedConfig, handler: RouteHandler<C>): RouteHandler<C> {
  return async (incoming, context) => {
    const sanitized = await config
    // Checked on the request as sent: a method-override read comes from the console's own pages too.
    if (isCrossOriginWrite(incoming.method, incoming.headers, incoming.url)) return refusalResponse(CROSS_ORIGIN)
    const request = await asRead(incoming)
    const url = new URL(request.url)
    const refusal = restRefusal(sanitized, request.method, url) ?? (await bodyRefusal(request)) ?? (await missingPreference(sanitized, request, url))
    if (refusal) return refusalResponse(refusal)
    const answer = await handler(request, context)
    // Payload's "Cannot GET …" for a route it does not serve (a collection without REST): not found.
    return answer.status === 501 ? refusalResponse(notFound('Route')) : answer
  }
}
