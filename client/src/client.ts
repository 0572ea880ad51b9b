/**
 * The API client: every operation of the OpenAPI document typed by path and method, the
 * envelope unwrapped to `{ data, pagination }` or thrown as an ApiError, and the spec's
 * worker flow for tokens:
 * - tokens are read fresh from the store on every call;
 * - a 401 on a call that carried a token refreshes once for every caller waiting at that
 *   moment (single flight), then the call is retried once;
 * - only a refused refresh (401 from /auth/refresh) clears the tokens and calls
 *   `onSessionEnded`; a throttled (429), failing (5xx) or unreachable server keeps them;
 * - GET /catalog and /meta are revalidated with If-None-Match and answered from the cached
 *   copy on 304.
 * Fetch only, no Node API: runs in an MV3 service worker, a page or Node 18+.
 */
import { ApiError } from './apiError'
import type { CallOptions, Method, Operation, PathsWith, Result } from './operations'
import type { Tokens, TokenStore } from './tokenStore'

export type ClientOptions = {
  /** The server's origin, e.g. `https://curation.example.org` (the API is below /api/v1). */
  baseUrl: string
  store: TokenStore
  /** Called once when the session ended for good (the refresh was refused): show the login. */
  onSessionEnded?: () => void
  /** Defaults to the global fetch. */
  fetch?: typeof fetch
}

/** Paths whose answers carry an ETag worth revalidating. */
const REVALIDATED = new Set(['/catalog', '/meta'])
/** Calls whose 401 is an answer, not an expired access token. */
const NO_REFRESH = new Set(['/auth/refresh', '/auth/login', '/auth/register'])

type Envelope = {
  success?: boolean
  data?: unknown
  pagination?: unknown
  error?: { code?: unknown; message?: unknown; details?: unknown }
  meta?: { requestId?: unknown }
}

type Answer = { status: number; headers: Headers; envelope: Envelope | undefined }

export type Client = ReturnType<typeof createClient>

export function createClient(options: ClientOptions) {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init))
  const apiBase = `${options.baseUrl.replace(/\/+$/, '')}/api/v1`
  const etags = new Map<string, { etag: string; result: { data: unknown; pagination: unknown } }>()
  let refreshing: Promise<boolean> | undefined

  async function send(method: string, url: string, headers: Record<string, string>, body: string | undefined, signal?: AbortSignal): Promise<Answer> {
    let res: Response
    try {
      res = await doFetch(url, { method, headers, body, signal })
    } catch (err) {
      throw new ApiError(0, 'network.error', err instanceof Error ? err.message : 'The request failed.')
    }
    const text = await res.text().catch(() => '')
    let envelope: Envelope | undefined
    try {
      envelope = text ? (JSON.parse(text) as Envelope) : undefined
    } catch {
      envelope = undefined
    }
    return { status: res.status, headers: res.headers, envelope }
  }

  function errorOf(answer: Answer): ApiError {
    const { status, headers, envelope } = answer
    const requestId = typeof envelope?.meta?.requestId === 'string' ? envelope.meta.requestId : (headers.get('x-request-id') ?? undefined)
    const retryAfter = headers.get('retry-after')
    const retryAfterSeconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined
    const error = envelope?.error
    if (envelope?.success === false && error && typeof error.code === 'string') {
      return new ApiError(status, error.code, typeof error.message === 'string' ? error.message : error.code, error.details, requestId, retryAfterSeconds)
    }
    return new ApiError(status, 'client.invalid_response', `The server answered ${status} without an API envelope.`, undefined, requestId, retryAfterSeconds)
  }

  /**
   * One refresh for everyone who needs it now. True when new tokens are stored. A refused
   * refresh token ends the session; anything else (429, 5xx, network) keeps the tokens and
   * rejects with that error, so the caller sees why.
   */
  function refreshTokens(): Promise<boolean> {
    refreshing ??= (async () => {
      const tokens = await options.store.get()
      if (!tokens) return false
      const answer = await send('POST', `${apiBase}/auth/refresh`, { 'Content-Type': 'application/json' }, JSON.stringify({ refreshToken: tokens.refreshToken }))
      if (answer.status === 200 && answer.envelope?.success) {
        await options.store.set(answer.envelope.data as Tokens)
        return true
      }
      if (answer.status === 401 || answer.status === 400) {
        // Definitive: this refresh token will never work again.
        await options.store.clear()
        options.onSessionEnded?.()
        return false
      }
      throw errorOf(answer)
    })().finally(() => {
      refreshing = undefined
    })
    return refreshing
  }

  function urlOf(path: string, params: Record<string, unknown> | undefined, query: Record<string, unknown> | undefined): string {
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params?.[name]
      if (value === undefined || value === null) throw new TypeError(`Missing path parameter ${name} for ${path}`)
      return encodeURIComponent(String(value))
    })
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.set(key, String(value))
    }
    const qs = search.toString()
    return `${apiBase}${filled}${qs ? `?${qs}` : ''}`
  }

  async function call(method: Method, path: string, opts: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}) {
    const url = urlOf(path, opts.params, opts.query)
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body)
    const cacheable = method === 'get' && REVALIDATED.has(path)

    const attempt = async (): Promise<{ answer: Answer; token: string | undefined }> => {
      const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers }
      if (body !== undefined) headers['Content-Type'] = 'application/json'
      const tokens = NO_REFRESH.has(path) && path !== '/auth/register' ? null : await options.store.get()
      if (tokens) headers.Authorization = `Bearer ${tokens.accessToken}`
      const cached = cacheable ? etags.get(url) : undefined
      if (cached) headers['If-None-Match'] = cached.etag
      return { answer: await send(method.toUpperCase(), url, headers, body, opts.signal), token: tokens?.accessToken }
    }

    let { answer, token } = await attempt()
    if (answer.status === 401 && token !== undefined && !NO_REFRESH.has(path)) {
      // Another call may have refreshed since this one read the store: then just retry.
      const current = await options.store.get()
      const renewed = current !== null && current.accessToken !== token ? true : await refreshTokens()
      if (renewed) ({ answer } = await attempt())
    }

    if (answer.status === 304 && cacheable) {
      const cached = etags.get(url)
      if (cached) return cached.result
    }
    if (answer.status >= 200 && answer.status < 300 && answer.envelope?.success === true) {
      const result = { data: answer.envelope.data, pagination: answer.envelope.pagination }
      const etag = answer.headers.get('etag')
      if (cacheable && etag) etags.set(url, { etag, result })
      return result
    }
    throw errorOf(answer)
  }

  const typed =
    <M extends Method>(method: M) =>
    <P extends PathsWith<M>>(path: P, ...rest: {} extends CallOptions<Operation<M, P>> ? [CallOptions<Operation<M, P>>?] : [CallOptions<Operation<M, P>>]) =>
      call(method, path, rest[0] as Parameters<typeof call>[2]) as Promise<Result<Operation<M, P>>>

  const client = {
    get: typed('get'),
    post: typed('post'),
    patch: typed('patch'),
    delete: typed('delete'),
    /** Signs in and stores the token pair. */
    async login(email: string, password: string) {
      const { data } = await client.post('/auth/login', { body: { email, password } })
      await options.store.set({ accessToken: data.accessToken, refreshToken: data.refreshToken })
      return data.user
    },
    /** Ends the session on the server (the refresh token's family) and clears the store. */
    async logout() {
      const tokens = await options.store.get()
      try {
        if (tokens) await client.post('/auth/logout', { body: { refreshToken: tokens.refreshToken } })
      } finally {
        await options.store.clear()
      }
    },
  }
  return client
}
