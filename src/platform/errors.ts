import { constraintOfMessage, cutText, ECHO_LIMIT } from './text'

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

/**
 * The first of `err` and the errors it wraps (its `cause` chain, `depth` deep at most) that `pick`
 * finds something in: libraries wrap what they were thrown (drizzle's DrizzleQueryError, Payload's).
 */
export function fromCauses<T>(err: unknown, pick: (e: Error) => T | undefined, depth = 3): T | undefined {
  for (let e: unknown = err, level = 0; e instanceof Error && level < depth; e = e.cause, level++) {
    const found = pick(e)
    if (found !== undefined) return found
  }
  return undefined
}

/** The server's code for a read stopped at its time limit (MongoDB's MaxTimeMSExpired), read by shape. */
const TIME_LIMIT_EXPIRED = 50

/**
 * A database read stopped at its time limit (Payload's own reads carry one on MongoDB): 503 with
 * Retry-After, the same answer as the content store's (src/db/mongo/readLimit), never a 500.
 */
export function fromTimeLimit(err: unknown): ApiError | undefined {
  return fromCauses(err, (e) =>
    (e as { code?: unknown }).code === TIME_LIMIT_EXPIRED ? new ApiError(503, 'service.unavailable', 'The database did not answer in time; try again.', undefined, { 'Retry-After': '1' }) : undefined,
  )
}

/**
 * The database cannot be reached for now: no server to select (an election, a network split), no
 * free connection in the pool within its wait, a primary that stepped down or is shutting down
 * under the operation. Retryable by the caller after a moment: 503 with Retry-After, never a
 * 500. Read by shape (the driver's error names and the server's codes; MongoDB's, the only
 * engine with a network between), so any copy of the driver is recognised.
 */
const UNAVAILABLE_NAMES = new Set(['MongoServerSelectionError', 'MongooseServerSelectionError', 'MongoWaitQueueTimeoutError', 'MongoPoolClearedError', 'MongoNetworkError', 'MongoNetworkTimeoutError'])
/** NotWritablePrimary, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary, InterruptedAtShutdown, InterruptedDueToReplStateChange, PrimarySteppedDown, ShutdownInProgress, HostUnreachable, HostNotFound, NetworkTimeout, SocketException. */
const UNAVAILABLE_CODES = new Set([10107, 13435, 13436, 11600, 11602, 189, 91, 6, 7, 89, 9001])

export function fromDatabaseUnavailable(err: unknown): ApiError | undefined {
  return fromCauses(err, (e) => {
    const { name, code } = e as { name?: unknown; code?: unknown }
    const unavailable = (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) || (typeof code === 'number' && UNAVAILABLE_CODES.has(code))
    return unavailable ? new ApiError(503, 'service.unavailable', 'The database cannot be reached just now; try again.', undefined, { 'Retry-After': '2' }) : undefined
  })
}

export type FieldProblem = { field: string; constraint: string; value?: unknown }

/** Echoed input is cut to ECHO_LIMIT characters: a megabyte field must not come back whole. */
const echoable = (problem: FieldProblem): FieldProblem => {
  const out: FieldProblem = { ...problem, field: cutText(problem.field) }
  if (typeof problem.value === 'string' && problem.value.length > ECHO_LIMIT) out.value = cutText(problem.value)
  return out
}

/** A refusal lists this many problems at most: the first ones found (a megabyte of bad values need not come back). */
export const MAX_PROBLEMS = 20

export const validationFailed = (details: FieldProblem[], message = 'The request is not valid.') =>
  new ApiError(400, 'validation.failed', message, details.slice(0, MAX_PROBLEMS).map(echoable))

type PayloadFieldError = { path?: unknown; message?: unknown }

/**
 * A write the collection layer refused (Payload's ValidationError: field validation, a
 * unique index) as 400 `validation.failed` with the fields, never a 500. Read by shape, so
 * this platform module needs no Payload import.
 */
export function fromCollectionValidation(err: unknown): ApiError | undefined {
  if (!(err instanceof Error) || err.name !== 'ValidationError') return undefined
  const errors = (err as { data?: { errors?: unknown } }).data?.errors
  if (!Array.isArray(errors)) return undefined
  return validationFailed(
    (errors as PayloadFieldError[]).map((e) => {
      const message = typeof e.message === 'string' ? e.message : ''
      return { field: String(e.path ?? '(body)'), constraint: constraintOfMessage(message) ?? (/unique/i.test(message) ? 'unique' : 'invalid') }
    }),
  )
}

export const notFound = (code: string, message: string) => new ApiError(404, code, message)

export const forbidden = (message = 'You do not have the permission this needs.') =>
  new ApiError(403, 'auth.forbidden', message)

/** A body over its limit (HTTP_BODY_LIMIT_BYTES, or HTTP_UPLOAD_LIMIT_BYTES for an upload): refused unread. */
export const bodyTooLarge = (limit: number) =>
  new ApiError(413, 'validation.failed', `The request body is larger than ${limit} bytes.`, [
    { field: '(body)', constraint: 'max_bytes' },
  ])
