/**
 * Payload's own REST routes (Next's `api/[...slug]` route; both serving paths use it). A
 * cookie-authenticated write from another origin is refused first (403, ./crossOrigin). Payload
 * answers some malformed requests with a 500, and some large ones hold the event loop for
 * seconds. Those are refused here next, each with the status that says what is wrong, never a 5xx:
 * - a query longer than a request line may carry, with more parameters than Payload's parser
 *   keeps or more nested keys than its clean-up can take in a turn (./payloadQueryChecks:
 *   QUERY_LIMITS), a method-override read's form body included: 400;
 * - `limit`, `page` or `depth` that is not a small whole number (`limit=1e309`, `limit[]=5`), or a
 *   read of more rows than READ_ROWS at its depth: 400 (./payloadQueryChecks, on the query as
 *   Payload parses it; a method-override read is the GET it stands for, whatever its body);
 * - a `where` or `sort` Payload must not run (./payloadQueryChecks): 400;
 * - the versions routes of a collection or global without versions: 404;
 * - `/api/<auth collection>/verify/...` where email verification is off: 404;
 * - an upload's file that is not on disk (a media record whose file is gone): 404;
 * - a body Payload cannot read where it reads one (not JSON, not an object, a broken form, a
 *   form of more than MAX_FORM_PARTS parts (read by Payload's own parser, ./multipartForm), a file
 *   name with control characters, a document write without a body), or nested deeper than
 *   MAX_JSON_DEPTH or of more than MAX_JSON_MEMBERS members (a JSON body or a multipart form's
 *   `_payload`; before Payload parses or copies it, ./jsonShape): 400; a body over its limit
 *   (HTTP_BODY_LIMIT_BYTES, HTTP_UPLOAD_LIMIT_BYTES) where no server counted it before (`next
 *   start`): 413;
 * - a route Payload does not serve (its 501 "Cannot GET"), a preference that does not exist
 *   on DELETE (Payload's adapter fails building that query): 404. The answer carries both Payload's shape
 * (`errors: [{ message }]`, which the admin panel reads) and the API's envelope fields.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'

import { getPayload, type SanitizedConfig } from 'payload'

import { getConfig } from '../platform/config'
import { FILE_NAME_PROBLEM, unsafeFileName } from '../platform/media/uploadChecks'
import { CROSS_ORIGIN, hasSessionCookie, isCrossOriginWrite } from './crossOrigin'
import { bodyPieces } from './bodyPieces'
import { cookieRefusal } from './cookieLimit'
import { MAX_FORM_PARTS, readForm } from './multipartForm'
import { parsePayloadQuery, QUERY_LIMITS, QUERY_TOO_LONG, queryRefusal, queryShapeRefusal, readSizeRefusal } from './payloadQueryChecks'
import { type Refusal, refusalResponse } from './refusal'
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from './jsonShape'

export type RouteHandler<C> = (request: Request, context: C) => Promise<Response>

const notFound = (what: string): Refusal => ({ status: 404, code: 'route.not_found', message: `${what} not found.` })

/** A read of a collection's rows (or versions), not of one document. */
function isListRead(parts: string[]): boolean {
  return parts.length === 2 || (parts.length === 3 && parts[2] === 'versions')
}

/** Why Payload must not see this request, or null. `method`: what Payload will run it as (an override read is a GET). */
export function restRefusal(config: SanitizedConfig, method: string, url: URL): Refusal | null {
  try {
    decodeURIComponent(url.pathname)
  } catch {
    return notFound('Route')
  }
  // Before anything reads the query's parameters one by one.
  const shape = queryShapeRefusal(url.search)
  if (shape) return shape
  const query = parsePayloadQuery(url.search)
  const parts = url.pathname.split('/').filter(Boolean)
  const [api, first, second, third] = parts
  const read = method === 'GET' || method === 'HEAD'
  const size = readSizeRefusal(query, { read, list: first !== 'globals' && isListRead(parts), defaultDepth: config.defaultDepth ?? 2 })
  if (size) return size
  if (api !== 'api' || !first) return null
  if (first === 'globals') {
    const global = config.globals.find((g) => g.slug === second)
    if (global && third === 'versions' && !global.versions) return notFound('Versions')
    return null
  }
  const collection = config.collections.find((c) => c.slug === first)
  if (!collection) return null
  const refused = queryRefusal(config, collection.slug, query)
  if (refused) return refused
  if (second === 'versions' && !collection.versions) return notFound('Versions')
  if (second === 'verify' && !(collection.auth && collection.auth.verify)) return notFound('Verification')
  if (second === 'file' && third && collection.upload && read) {
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

const BAD_SHAPE = {
  max_depth: badBody('max_depth', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`),
  max_members: badBody('max_members', `The request body holds more than ${MAX_JSON_MEMBERS} object members.`),
}

const tooLarge = (limit: number): Refusal => ({
  status: 413,
  code: 'validation.failed',
  message: `The request body is larger than ${limit} bytes.`,
  details: [{ field: '(body)', constraint: 'max_bytes' }],
})

/** A create or update of a document (or a global): its body must be the document, a JSON object. */
function isDocumentWrite(method: string, url: URL): boolean {
  const parts = url.pathname.split('/').filter(Boolean)
  if (parts[1] === 'globals') return method === 'POST' && parts.length === 3
  if (method === 'POST') return parts.length === 2
  return (method === 'PATCH' || method === 'PUT') && (parts.length === 2 || parts.length === 3)
}

/**
 * The body's bytes, read up to `limit` (null past it): the production server counted them
 * already (./bodyLimit), `next start` and `next dev` did not.
 */
async function bytesUpTo(request: Request, limit: number): Promise<Buffer | null> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) return null
  if (request.body === null) return Buffer.alloc(0)
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of bodyPieces(request.clone().body!)) {
    size += chunk.byteLength
    if (size > limit) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** A form's checks, as Payload's parser reads it: its part count, its file names, its `_payload` (returned, or a refusal). */
async function formRefusal(request: Request, contentType: string): Promise<Refusal | string | null> {
  const { json, upload } = getConfig().bodyLimits
  if (Number(request.headers.get('content-length') ?? 0) > upload) return tooLarge(upload)
  if (request.body === null) return badBody('multipart', 'The form data is not valid multipart.')
  const form = await readForm(bodyPieces(request.clone().body!), contentType, upload)
  if (!form.ok) {
    if (form.reason === 'max_parts') return badBody('max_parts', `A form may have at most ${MAX_FORM_PARTS} parts.`)
    if (form.reason === 'max_field_bytes') return tooLarge(json)
    if (form.reason === 'max_bytes') return tooLarge(upload)
    if (form.reason !== 'control_characters') return badBody('multipart', 'The form data is not valid multipart.')
  }
  // Payload's own parser fails on such a part header with a 500 (a C0 control: its parser refuses
  // the header; a C1 control reaches the file's name).
  if (!form.ok || form.fileNames.some(unsafeFileName)) {
    return { status: 400, code: 'validation.failed', message: FILE_NAME_PROBLEM, details: [{ field: 'filename', constraint: 'control_characters' }] }
  }
  return form.fields.get('_payload') ?? null
}

/**
 * What Payload would fail on with a 500: a form it cannot read, a body that is not JSON (or
 * not an object) where Payload reads one, a document write with no body, JSON nested too deep;
 * and a body over its limit. `overrideRead`: a method-override read with a JSON body (Payload
 * parses it, and runs a GET): only that JSON is checked.
 */
export async function bodyRefusal(request: Request, overrideRead = false): Promise<Refusal | null> {
  const method = request.method
  if (method !== 'POST' && method !== 'PATCH' && method !== 'PUT') return null
  const url = new URL(request.url)
  const type = request.headers.get('content-type')?.toLowerCase() ?? ''
  if (overrideRead && !type.startsWith('application/json')) return null
  let json: string
  if (type.startsWith('multipart/form-data')) {
    const form = await formRefusal(request, request.headers.get('content-type') ?? '')
    if (form === null) return null
    if (typeof form !== 'string') return form
    json = form
  } else {
    const limit = getConfig().bodyLimits.json
    const bytes = await bytesUpTo(request, limit)
    if (bytes === null) return tooLarge(limit)
    const text = bytes.toString('utf8')
    if (text.trim() === '') return !overrideRead && isDocumentWrite(method, url) ? badBody('required', 'The request needs a JSON body.') : null
    if (!type.includes('json')) return badBody('content_type', 'The request body must be JSON (Content-Type: application/json).')
    json = text
  }
  const shape = jsonShapeProblem(json)
  if (shape) return BAD_SHAPE[shape]
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

const ANONYMOUS_WRITE: Refusal = { status: 403, code: 'auth.forbidden', message: 'You are not allowed to perform this action.' }

/**
 * A document write with no credential at all (no session cookie, no Authorization header): no
 * collection or global lets one write, so Payload would answer 403, after reading, parsing and
 * copying the body (docs/benchmarks.md, *Measurements behind the code*). Answered 403 here, unread.
 */
function anonymousWrite(config: SanitizedConfig, request: Request, overrideRead: boolean, url: URL): Refusal | null {
  if (overrideRead || !isDocumentWrite(request.method, url)) return null
  if (hasSessionCookie(request.headers) || request.headers.has('authorization')) return null
  // Only where Payload serves the route: elsewhere its 404 stands (a collection without REST).
  const [, first, second] = url.pathname.split('/').filter(Boolean)
  const entity = first === 'globals' ? config.globals.find((g) => g.slug === second) : config.collections.find((c) => c.slug === first)
  return entity && entity.endpoints !== false ? ANONYMOUS_WRITE : null
}

/**
 * Payload's method-override read (its admin panel's relationship options, list filters: `POST`
 * with `X-Payload-HTTP-Method-Override: GET`, or `X-HTTP-Method-Override`): Payload runs any such
 * POST as a GET (handleEndpoints), whatever its body, so the guard judges it as that GET.
 */
function isOverrideRead(request: Request): boolean {
  return request.method === 'POST' && (request.headers.get('x-payload-http-method-override') === 'GET' || request.headers.get('x-http-method-override') === 'GET')
}

/**
 * A method-override read with a form body (the query, as the admin panel sends a long one) as
 * the GET it stands for, so that it meets the same checks and Payload sees the same request. The
 * form is the query a GET would carry, so it is held to what a GET's query may be: no longer than
 * a request line (QUERY_LIMITS.bytes), read no further than that, and joined to the URL's query as
 * it is, once (appended parameter by parameter, a large form held the loop for seconds).
 */
async function formAsRead(request: Request): Promise<Request | Refusal> {
  const form = await bytesUpTo(request, QUERY_LIMITS.bytes)
  if (form === null) return QUERY_TOO_LONG
  const url = new URL(request.url)
  url.search = [url.search.slice(1), form.toString('utf8')].filter(Boolean).join('&')
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
    // Under `next start` no server of ours read the cookies first (./nodeServer does the same).
    const cookies = cookieRefusal(incoming.headers)
    if (cookies) return refusalResponse(cookies)
    const overrideRead = isOverrideRead(incoming)
    const isForm = incoming.headers.get('content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded') === true
    const request = overrideRead && isForm ? await formAsRead(incoming) : incoming
    if (!(request instanceof Request)) return refusalResponse(request)
    const url = new URL(request.url)
    const refusal =
      restRefusal(sanitized, overrideRead ? 'GET' : request.method, url) ??
      anonymousWrite(sanitized, request, overrideRead, url) ??
      (await bodyRefusal(request, overrideRead)) ??
      (await missingPreference(sanitized, request, url))
    if (refusal) return refusalResponse(refusal)
    const answer = await handler(request, context)
    // Payload's "Cannot GET …" for a route it does not serve (a collection without REST): not found.
    return answer.status === 501 ? refusalResponse(notFound('Route')) : answer
  }
}
