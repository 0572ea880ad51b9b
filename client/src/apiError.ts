/** A failed call: the API's error envelope, or what the client saw instead of one. */
export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when no answer arrived (network error). */
    readonly status: number,
    /** The API's stable error code (`auth.invalid_token`, …), or `network.error` / `client.invalid_response`. */
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** The request id the server answered with (meta.requestId / X-Request-Id), when known. */
    readonly requestId?: string,
    /** Seconds to wait, from Retry-After on 429 and 503. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** No answer from the server, or an answer the client could not read. */
  get isNetworkError(): boolean {
    return this.status === 0
  }
}
