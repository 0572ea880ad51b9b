import { type AuthMode, type AuthUser, requirePermissions } from '../../access/guards'
import { authenticate } from './bearer'
import { currentCaller } from '../auth/currentStanding'
import { getConfig } from '../platform/config'
import { ApiError, bodyTooLarge, fromCauses, fromCollectionValidation, fromDatabaseUnavailable, fromTimeLimit, validationFailed } from '../platform/errors'
import { routeBodyLimit } from './bodyBound'
import { applyCors } from './cors'
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from './jsonShape'
import { etagMatches } from './etag'
import { versionTag } from '../platform/entityTag'
import { type CacheLookup, cacheTracing, traced } from '../platform/cacheTrace'
import { logRequestCompleted, type RequestLogger, withFields } from '../platform/logging'
import { observeRequest } from '../platform/metrics'
import { clientIp } from './clientIp'
import { cachedEnvelope, dataEnvelope, encodeText, type EncodedBody, metaTail } from './envelopeBody'
import { requestIdFrom } from './requestId'
import type { ApiContext, ApiRequest, ApiResult, Reply, RouteInput, RouteRequest, RouteSpec } from './route'
import { parseSearch, parseWith } from './validation'

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

type ErrorBody = { code: string; message: string; details?: unknown }

/** A wrapped route: the request and the path parameters its pattern captured. */
export type ApiHandler = (req: ApiRequest, params: Record<string, string>) => Promise<ApiResult>

/** Who is calling, or null when anonymous: /api/v1 reads the bearer token, the console its session. */
export type CallerOf = (req: ApiRequest) => Promise<AuthUser | null>

export type WrapOptions = {
  /** Resolves the caller; by default the bearer token per the route's auth mode. */
  caller?: CallerOf
  /** /api/v1 answers cross-origin callers; the console's same-origin endpoints do not. */
  cors?: boolean
  /** Reads the request body, held to `limit` bytes; by default the body text as JSON. */
  readBody?: (req: ApiRequest, limit: number) => Promise<unknown>
  /**
   * Error envelopes also carry `errors: [{ message }]`, which Payload's admin forms (the
   * console's sign-in) show; the envelope stays the same.
   */
  payloadFormErrors?: boolean
}

/** The API's caller: a read's is its access token's; a write's is the token's user as it stands now. */
function bearerCaller(mode: AuthMode): CallerOf {
  return (req) => {
    const current = READ_METHODS.has(req.method.toUpperCase()) ? undefined : (claims: { sub: string; iat: number }) => currentCaller(req.payload, claims)
    return authenticate(req.headers.get('authorization'), mode, current)
  }
}

function errorOf(thrown: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  // What the collection layer refuses is the caller's bad input (400), not our failure.
  // An answer of ours may come wrapped by a library (drizzle's DrizzleQueryError keeps it as `cause`).
  const err = fromCollectionValidation(thrown) ?? fromCauses(thrown, (e) => (e instanceof ApiError ? e : undefined)) ?? fromTimeLimit(thrown) ?? fromDatabaseUnavailable(thrown) ?? thrown
  if (err instanceof ApiError) {
    const body: ErrorBody = { code: err.code, message: err.message }
    if (err.details !== undefined) body.details = err.details
    return { status: err.status, body, headers: err.headers }
  }
  const body: ErrorBody = { code: 'internal.error', message: 'An unexpected error occurred.' }
  if (!getConfig().isProduction && err instanceof Error) body.details = { name: err.name, message: err.message }
  return { status: 500, body }
}

/** 400 `validation.failed` for a body of a shape no real one has (./jsonShape): too deep, or too many members. */
export const badShape = (problem: 'max_depth' | 'max_members') =>
  validationFailed(
    [{ field: '(body)', constraint: problem }],
    problem === 'max_depth' ? `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.` : `The request body holds more than ${MAX_JSON_MEMBERS} object members.`,
  )

/** The body text as JSON; an empty body is `{}`, malformed JSON 400 `validation.failed`, a shape no real body has as well. */
export async function readJson(req: ApiRequest, limit: number): Promise<unknown> {
  const text = await req.text(limit)
  if (text.trim() === '') return {}
  const shape = jsonShapeProblem(text)
  if (shape) throw badShape(shape)
  try {
    return JSON.parse(text)
  } catch {
    throw validationFailed([{ field: '(body)', constraint: 'json' }], 'The request body is not valid JSON.')
  }
}

const NO_INPUT: RouteInput = { query: undefined, body: undefined, params: undefined }

/**
 * The route's declared input, parsed once here for every route: the query (remembered per query
 * string: ./validation's parseSearch), the path's parameters, the body; the first refusal is 400.
 */
async function inputOf(request: RouteRequest | undefined, ctx: RequestContext): Promise<RouteInput> {
  if (!request) return NO_INPUT
  return {
    query: request.query ? parseSearch(request.query, ctx.req.search, request.queryOptions) : undefined,
    params: request.params ? parseWith(request.params, ctx.params) : undefined,
    body: request.body ? parseWith(request.body, await ctx.body()) : undefined,
  }
}

/** More tags than any client keeps of one record: a longer list is refused, not walked. */
const MAX_IF_MATCH_TAGS = 50

/** If-Match's tags (`*` or quoted, weak or strong), undefined without the header; a malformed list is 400. */
function ifMatchTags(header: string | null): readonly string[] | undefined {
  if (header === null) return undefined
  const tags = header.split(',', MAX_IF_MATCH_TAGS + 1).map((t) => t.trim()).filter(Boolean)
  const wellFormed = tags.length > 0 && tags.length <= MAX_IF_MATCH_TAGS && tags.every((t) => t === '*' || /^(W\/)?"[^"]*"$/.test(t))
  if (!wellFormed) throw validationFailed([{ field: 'If-Match', constraint: 'format', value: header.slice(0, 100) }])
  return tags
}

/** What a handler sees of its request; the query, client address and body are read on first use. */
class RequestContext implements ApiContext {
  input: RouteInput = NO_INPUT
  private parsedQuery: URLSearchParams | undefined
  private address: string | undefined
  private bodyRead: Promise<unknown> | undefined

  constructor(
    readonly req: ApiRequest,
    readonly requestId: string,
    readonly params: Record<string, string>,
    readonly user: AuthUser | null,
    private readonly logOf: () => RequestLogger,
    private readonly readBody: (req: ApiRequest, limit: number) => Promise<unknown>,
    private readonly bodyLimit: number,
  ) {}

  // A hot route reads its query once per distinct string (parseSearch), so most never parse it.
  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.req.search))
  }

  get ip(): string {
    return (this.address ??= clientIp(this.req.headers))
  }

  get userAgent(): string {
    return this.req.headers.get('user-agent') ?? ''
  }

  get ifMatch(): readonly string[] | undefined {
    return ifMatchTags(this.req.headers.get('if-match'))
  }

  get log(): RequestLogger {
    return this.logOf()
  }

  // A property, not a method: handlers destructure it (`({ body }) => body()`).
  readonly body = (): Promise<unknown> => (this.bodyRead ??= this.readBody(this.req, this.bodyLimit))
}

/**
 * Turns a route into a handler. This is the one place that builds the envelope (its bytes and
 * their coding: ./envelopeBody), echoes the request id, applies CORS, caching and Vary headers,
 * maps errors, and writes the `request.completed` log line.
 */
export function wrap(
  spec: Pick<RouteSpec, 'auth' | 'permissions' | 'before' | 'handler' | 'request'>,
  routeName: string,
  options: WrapOptions = {},
): ApiHandler {
  const mode = spec.permissions?.length ? 'required' : (spec.auth ?? 'none')
  const permissions = spec.permissions ?? []
  const callerOf = options.caller ?? bearerCaller(mode)
  const cors = options.cors ?? true
  const readBody = options.readBody ?? readJson
  return async (req, params) => {
    const started = performance.now()
    const requestId = requestIdFrom(req.headers)
    // Made on first use: most requests log nothing but their request.completed line.
    let requestLog: RequestLogger | undefined
    const log = () => (requestLog ??= withFields({ requestId, route: routeName }))
    // Every answer's coding may follow Accept-Encoding (even a small one, when identity is refused).
    const headers: Record<string, string> = { 'X-Request-Id': requestId, Vary: 'Accept-Encoding' }
    const acceptEncoding = req.headers.get('accept-encoding')
    let userId: string | undefined
    let status = 200
    // Every cache lookup the answer took, in order (log level debug: src/platform/cacheTrace).
    const lookups: CacheLookup[] | undefined = cacheTracing() ? [] : undefined
    let encoded: EncodedBody | null

    try {
      // An announced body over the limit is refused before anything else, the caller included:
      // the route's largest declared body (./bodyBound), within the server's limit.
      const limit = routeBodyLimit(spec.request?.body, getConfig().bodyLimits.json)
      if (Number(req.headers.get('content-length') ?? 0) > limit) throw bodyTooLarge(limit)
      const user = await callerOf(req)
      userId = user?.id
      requirePermissions(user, permissions)
      const ctx = new RequestContext(req, requestId, params, user, log, readBody, limit)
      if (spec.before) await spec.before(ctx)
      ctx.input = await inputOf(spec.request, ctx)
      const reply: Reply = lookups ? await traced(lookups, () => spec.handler(ctx)) : await spec.handler(ctx)
      status = reply.status ?? 200
      if (reply.headers) Object.assign(headers, reply.headers)
      headers['Cache-Control'] = reply.cacheControl ?? 'no-store'
      if (reply.version) headers.ETag = versionTag(reply.version)
      if (reply.etag) {
        // Weak, over the data: the same tag whatever the coding (the representations are equivalent).
        headers.ETag = reply.etag
        if (etagMatches(req.headers.get('if-none-match'), reply.etag)) status = 304
      }
      if (status === 304) {
        encoded = null
      } else {
        headers['Content-Type'] = 'application/json; charset=utf-8'
        const tail = () => metaTail(requestId, Math.round(performance.now() - started))
        if ('serialized' in reply) encoded = cachedEnvelope(reply.serialized, tail(), acceptEncoding)
        else if (reply.bare) encoded = encodeText(JSON.stringify(reply.data), acceptEncoding)
        else encoded = encodeText(dataEnvelope(reply.data, reply.pagination, tail()), acceptEncoding)
      }
    } catch (err) {
      const mapped = errorOf(err)
      status = mapped.status
      if (mapped.headers) Object.assign(headers, mapped.headers)
      headers['Cache-Control'] = 'no-store'
      headers['Content-Type'] = 'application/json; charset=utf-8'
      if (status >= 500) log().error({ err, userId }, 'request.failed')
      const envelope: Record<string, unknown> = { success: false, error: mapped.body, meta: { requestId } }
      if (options.payloadFormErrors) envelope.errors = [{ message: mapped.body.message }]
      encoded = encodeText(JSON.stringify(envelope), acceptEncoding)
    }
    if (encoded?.coding) headers['Content-Encoding'] = encoded.coding
    if (cors) applyCors(headers, req.headers.get('origin'))
    const elapsed = performance.now() - started
    observeRequest(routeName, status, elapsed)
    const durationMs = Math.round(elapsed)
    // 4xx never at error: 429 (throttled) and 408 (body never finished) are the suspicious ones.
    const level = status >= 500 ? 'error' : status === 429 || status === 408 ? 'warn' : 'info'
    logRequestCompleted(level, { requestId, route: routeName, userId, statusCode: status, durationMs })
    if (lookups) log().debug({ lookups }, 'request.caches')
    return { status, headers, body: encoded?.body ?? null }
  }
}
