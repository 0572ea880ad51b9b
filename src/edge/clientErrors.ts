/**
 * Answers for errors Node's HTTP parser or its timers detect before (or while) a handler
 * runs: header block too large, a method or request line Node cannot parse, a request whose
 * headers or body did not arrive in time. Node would write a bare status line; these write
 * the API's envelope instead, then close the connection (the byte stream cannot be trusted
 * past a parse error).
 */
import type { Socket } from 'node:net'

import { fastUlid } from './requestId'
import type { FieldProblem } from '../platform/errors'
import { logger } from '../platform/logging'
import { SECURITY_HEADER_LINES } from './securityHeadersNode'

type Refusal = { status: number; reason: string; message: string; problem: FieldProblem; msg: string; code?: string }

const REASONS: Record<number, string> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

/** Node's error codes (llhttp's `HPE_*` and Node's own timeout) with an answer of their own. */
const REFUSALS: Record<string, Omit<Refusal, 'reason'>> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: 'The request headers are too large.',
    problem: { field: '(headers)', constraint: 'max_bytes' },
    msg: 'request.rejected',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: 'The request did not arrive in time.',
    problem: { field: '(request)', constraint: 'timeout' },
    msg: 'request.timeout',
  },
  HPE_INVALID_METHOD: {
    status: 400,
    message: 'The request method is not recognised.',
    problem: { field: '(request)', constraint: 'http_method' },
    msg: 'request.rejected',
  },
}

/** Any other parse error. */
const NOT_HTTP: Omit<Refusal, 'reason'> = {
  status: 400,
  message: 'The request is not valid HTTP.',
  problem: { field: '(request)', constraint: 'http_syntax' },
  msg: 'request.rejected',
}

/** Node's error code -> the answer. */
export function refusalFor(code: string | undefined): Refusal {
  const known = code !== undefined && Object.hasOwn(REFUSALS, code) ? REFUSALS[code] : undefined
  return { ...(known ?? NOT_HTTP), reason: code ?? 'unknown' }
}

/** The raw HTTP/1.1 answer: status line, JSON type, exact length, Connection: close. */
export function refusalResponse(refusal: Refusal, requestId: string): string {
  const body = JSON.stringify({
    success: false,
    error: { code: refusal.code ?? 'validation.failed', message: refusal.message, details: [refusal.problem] },
    meta: { requestId },
  })
  return (
    `HTTP/1.1 ${refusal.status} ${REASONS[refusal.status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    `X-Request-Id: ${requestId}\r\n` +
    SECURITY_HEADER_LINES +
    'Connection: close\r\n\r\n' +
    body
  )
}

/**
 * http.Server's `clientError` listener. `answered(socket)` says whether a response on this
 * socket already started: then no status line may be written, the connection is only closed.
 * A reset by the peer is ordinary and logged at debug; every other refusal at warn, no stack.
 */
export function onClientError(err: Error & { code?: string }, socket: Socket, answered: (socket: Socket) => boolean): void {
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE') {
    logger().debug({ reason: err.code }, 'request.aborted')
    socket.destroy()
    return
  }
  const refusal = refusalFor(err.code)
  const requestId = `req_${fastUlid()}`
  const writable = socket.writable && !answered(socket)
  logger().warn({ requestId, statusCode: refusal.status, reason: refusal.reason, answered: writable }, refusal.msg)
  // Close once the answer is flushed: the peer may never send its FIN.
  if (writable) socket.end(refusalResponse(refusal, requestId), () => socket.destroy())
  else socket.destroy()
}

/**
 * CONNECT (a proxy tunnel request): Node hands it to a `connect` listener, and without one
 * closes the connection unanswered. This service tunnels nothing: 405 with the envelope.
 */
export function onConnectRequest(socket: Socket): void {
  const refusal: Refusal = {
    status: 405,
    code: 'route.method_not_allowed',
    reason: 'CONNECT',
    message: 'CONNECT is not allowed here.',
    problem: { field: '(request)', constraint: 'http_method' },
    msg: 'request.rejected',
  }
  const requestId = `req_${fastUlid()}`
  logger().warn({ requestId, statusCode: 405, reason: 'CONNECT' }, refusal.msg)
  if (socket.writable) socket.end(refusalResponse(refusal, requestId), () => socket.destroy())
  else socket.destroy()
}
