import type { Payload } from 'payload'
import type { z, ZodType } from 'zod'

import type { AuthMode, AuthUser } from '../../access/guards'
import type { HeaderReader } from './headers'
import type { RequestLogger } from '../platform/logging'
import type { ErrorCode } from './errorCodes'
import type { QueryOptions } from './validation'

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete'

import type { Pagination } from '../platform/pagination'
import type { SerializedAnswer } from '../platform/serializedAnswer'

export type { Pagination }

/** The headers and status a handler may set, whatever form its data takes. */
type ReplyHead = {
  /** 200 unless said otherwise (201 for creation). */
  status?: number
  /** Cacheable public reads: the wrapper answers 304 when If-None-Match matches. */
  etag?: string
  /** The record's stored version (its `updatedAt`): answered as its ETag (RouteResponses.versioned). */
  version?: string
  cacheControl?: string
  headers?: Record<string, string>
}

/** What a handler returns: raw data; the wrapper builds the envelope and the headers. */
export type DataReply = ReplyHead & {
  data: unknown
  pagination?: Pagination
  /**
   * `data` is the whole body, without the envelope: only for answers whose shape a third
   * party fixes (Payload's admin panel reads its own login answer). Errors stay enveloped.
   */
  bare?: boolean
}

/**
 * A cached answer, already serialized (src/platform/serializedAnswer): the wrapper writes its bytes
 * with the per-request `meta` appended, and never serializes its data again.
 */
export type SerializedReply = ReplyHead & { serialized: SerializedAnswer }

export type Reply = DataReply | SerializedReply

/**
 * One /api/v1 request, independent of the transport: the Node server builds it from the
 * socket's request, the Next route and the tests from a Fetch Request.
 */
export type ApiRequest = {
  payload: Payload
  method: string
  /** Path below /api, without the query: `/v1/content/abc`. */
  path: string
  /** The raw query string without `?`. */
  search: string
  /** The origin the client addressed (scheme, host, port). */
  origin: string
  headers: HeaderReader
  /** The body as text; a body over `limit` bytes (the route's, within the server's) rejects with 413. */
  text(limit: number): Promise<string>
}

/**
 * What the API answers, ready to write to any transport: the body as text, or as bytes (a
 * cached answer's, or a compressed one's, with its Content-Encoding among the headers).
 */
export type ApiResult = { status: number; headers: Record<string, string>; body: AnswerBody | null }

/** A body as text, as bytes, or as byte parts written in turn (a kept answer and this request's meta: nothing copied). */
export type AnswerBody = string | Buffer<ArrayBuffer> | readonly Buffer<ArrayBuffer>[]

/** The body's length in bytes (Content-Length). */
export function bodyLength(body: AnswerBody): number {
  if (typeof body === 'string') return Buffer.byteLength(body)
  if (Buffer.isBuffer(body)) return body.length
  let n = 0
  for (const part of body as readonly Buffer[]) n += part.length
  return n
}

/** The body as one string or buffer (Fetch's Response takes no list of parts). */
export function wholeBody(body: AnswerBody): string | Buffer<ArrayBuffer> {
  return typeof body === 'string' || Buffer.isBuffer(body) ? body : Buffer.concat(body as readonly Buffer<ArrayBuffer>[])
}

/**
 * A route's input, parsed by the edge from what the route declares (`request`): the query,
 * the body and the path's parameters, each its schema's output (undefined when undeclared).
 * Handlers read it here and parse nothing themselves.
 */
export type RouteInput<R extends RouteRequest = RouteRequest> = {
  query: Declared<R, 'query'>
  body: Declared<R, 'body'>
  params: Declared<R, 'params'>
}

/** A declared schema's output; undefined when the route does not declare it (unknown for a route of any declaration). */
type Declared<R, K extends string> = K extends keyof R ? (R[K] extends ZodType ? z.output<R[K]> : unknown) : undefined

export type ApiContext<I = unknown> = {
  /** The declared input, parsed (./validation: 400 `validation.failed` before the handler runs). */
  input: I
  req: ApiRequest
  requestId: string
  params: Record<string, string>
  query: URLSearchParams
  user: AuthUser | null
  /** The client address (X-Forwarded-For is honoured only when TRUST_PROXY is set). */
  ip: string
  /** The User-Agent header ('' when absent): handlers see no headers. */
  userAgent: string
  /** If-Match's entity tags, undefined without the header: a versioned write passes them to its service (412 when stale). */
  ifMatch: readonly string[] | undefined
  log: RequestLogger
  /** The JSON body; malformed JSON is 400 `validation.failed`. */
  body(): Promise<unknown>
}

/** What a route reads, as zod schemas: the edge parses them into the handler's input, and the OpenAPI document is built from them. */
export type RouteRequest = {
  /** The query string's parameters, one property each. */
  query?: ZodType
  /** How the query is read (./validation's QueryOptions: whether control characters are refused before the schema's rules). */
  queryOptions?: QueryOptions
  /** The JSON body. */
  body?: ZodType
  /** The path's parameters; undeclared ones are documented as plain strings. */
  params?: ZodType
}

/** What a route answers: the envelope's data, and every error code it can answer beyond those its declaration implies. */
export type RouteResponses = {
  /** The success envelope's `data`. */
  data: ZodType
  /** A list with the envelope's `pagination`. */
  paginated?: boolean
  /** The success status: 200 unless said otherwise (201 for creation). */
  status?: 200 | 201
  /**
   * Error codes the route's own logic answers (src/edge/errorCodes names their statuses).
   * Authentication, permission, validation (when a request schema is declared), body-size,
   * rate-limit (`rateLimited`) and internal errors are added from the rest of the declaration.
   */
  errors?: readonly ErrorCode[]
  /** Public cacheable read: ETag, Cache-Control, and 304 on a matching If-None-Match. */
  cached?: boolean
  /**
   * The answer names the record's version as its ETag; a write honours If-Match with it (412
   * `precondition.failed` when the record changed since), without requiring it.
   */
  versioned?: boolean
  /** The route's `before` gate throttles it: 429 `ratelimit.exceeded` with Retry-After. */
  rateLimited?: boolean
  /** Response headers beyond the standard ones: name → description. */
  headers?: Record<string, string>
}

export type RouteSpec<R extends RouteRequest = RouteRequest> = {
  /** A one-line summary for the API reference. */
  summary?: string
  method: HttpMethod
  /** Path below /api/v1, in path-to-regexp syntax: `/content/:slug`. */
  path: string
  auth?: AuthMode
  /** ALL of these are required (AND). Implies required auth. */
  permissions?: readonly string[]
  /** Runs after authentication and before the handler: rate limits and other gates. */
  before?: (ctx: ApiContext) => Promise<void>
  handler: (ctx: ApiContext<RouteInput<R>>) => Promise<Reply>
  request?: R
  responses: RouteResponses
}

export const API_PREFIX = '/v1'

/** A record answered with its version as the ETag (RouteResponses.versioned). */
export const versioned = <T extends { updatedAt: string }>(data: T): DataReply => ({ data, version: data.updatedAt })

/** A route, its handler typed by what it declares (`request`). */
export function defineRoute<const R extends RouteRequest = Record<never, never>>(spec: RouteSpec<R>): RouteSpec {
  return spec as unknown as RouteSpec
}
