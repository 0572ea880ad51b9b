/**
 * Answers for errors Node's HTTP parser or its timers detect before (or while) a handler
 * runs: header block too large, a method or request line Node cannot parse, a request whose
 * headers or body did not arrive in time. Node would write a bare status line; these write
 * the API's envelope instead, then close the connection (the byte stream cannot be trusted
 * past a parse error).
 */
import type { Socket } from 'node:net'

import { fastUlid } from '../api/requestId'
import type { FieldProblem } from '../errors'
import { logger } from '../logging'

type Refusal = { status: number; reason: string; message: string; problem: FieldProblem; msg: string }

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

/** Node's error code -> the answer. Codes are llhttp's (`HPE_*`) and Node's own timeout. */
export function refusalFor(code: string | undefined): Refusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: code,
        message: 'The request headers are too large.',
        problem: { field: '(headers)', constraint: 'max_bytes' },
        msg: 'request.rejected',
      }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: code,
        message: 'The request did not arrive in time.',
        problem: { field: '(request)', constraint: 'timeout' },
        msg: 'request.timeout',
      }
    case 'HPE_INVALID_METHOD':
      return {
        status: 400,
        reason: code,
        message: 'The request method is not recognised.',
        problem: { field: '(request)', constraint: 'http_method' },
        msg: 'request.rejected',
      }
    default:
      return {
        status: 400,
        reason: code ?? 'unknown',
        message: 'The request is not valid HTTP.',
        problem: { field: '(request)', constraint: 'http_syntax' },
        msg: 'request.rejected',
      }
  }
}

/** The raw HTTP/1.1 answer: status line, JSON type, exact length, Connection: close. */
export function refusalResponse(refusal: Refusal, requestId: string): string {
  const body = JSON.stringify({
    success: false,
    error: { code: 'validation.failed', message: refusal.message, details: [refusal.problem] },
    meta: { requestId },
  })
  return (
    `HTTP/1.1 ${refusal.status} ${REASONS[refusal.status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    `X-Request-Id: ${requestId}\r\n` +
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
