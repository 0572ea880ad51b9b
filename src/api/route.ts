import type { PayloadRequest } from 'payload'

import type { AuthMode, AuthUser } from '../../access/guards'
import type { RequestLogger } from '../logging'

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete'

export type Pagination = { offset: number; limit: number; total: number; hasMore: boolean }

/** What a handler returns: raw data; the wrapper builds the envelope and the headers. */
export type Reply = {
  data: unknown
  pagination?: Pagination
  /** 200 unless said otherwise (201 for creation). */
  status?: number
  /** Cacheable public reads: the wrapper answers 304 when If-None-Match matches. */
  etag?: string
  cacheControl?: string
  headers?: Record<string, string>
}

export type ApiContext = {
  req: PayloadRequest
  requestId: string
  params: Record<string, string>
  query: URLSearchParams
  user: AuthUser | null
  /** The client address (X-Forwarded-For is honoured only when TRUST_PROXY is set). */
  ip: string
  log: RequestLogger
  /** The JSON body; malformed JSON is 400 `validation.failed`. */
  body(): Promise<unknown>
}

export type RouteSpec = {
  method: HttpMethod
  /** Path below /api/v1, in path-to-regexp syntax: `/content/:slug`. */
  path: string
  auth?: AuthMode
  /** ALL of these are required (AND). Implies required auth. */
  permissions?: readonly string[]
  /** Runs after authentication and before the handler: rate limits and other gates. */
  before?: (ctx: ApiContext) => Promise<void>
  handler: (ctx: ApiContext) => Promise<Reply>
}

export const API_PREFIX = '/v1'

export function defineRoute(spec: RouteSpec): RouteSpec {
  return spec
}
