/** A failure the API reports to its caller: HTTP status, stable dotted code, readable message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export type FieldProblem = { field: string; constraint: string; value?: unknown }

export const validationFailed = (details: FieldProblem[], message = 'The request is not valid.') =>
  new ApiError(400, 'validation.failed', message, details)

export const notFound = (code: string, message: string) => new ApiError(404, code, message)

export const forbidden = (message = 'You do not have the permission this needs.') =>
  new ApiError(403, 'auth.forbidden', message)

/** Request bodies are JSON documents of a few kilobytes; anything past this is refused unread. */
export const MAX_BODY_BYTES = 1024 * 1024

export const bodyTooLarge = () =>
  new ApiError(413, 'validation.failed', `The request body is larger than ${MAX_BODY_BYTES} bytes.`, [
    { field: '(body)', constraint: 'max_bytes' },
  ])
