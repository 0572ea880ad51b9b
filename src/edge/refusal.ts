/**
 * A request the edge refuses before any handler sees it (outside /api/v1, whose wrapper writes
 * its own envelope): the API's error envelope plus the `errors: [{ message }]` that Payload's
 * admin panel reads and shows, as a Fetch Response (Payload's REST route, ./payloadRestGuard) or
 * written to Node's response (./bodyLimit, ./crossOrigin).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { NodeHeaderReader } from './headers'
import { fastUlid, requestIdFrom } from './requestId'

export type Refusal = { status: number; code: string; message: string; details?: unknown }

function refusalBody({ code, message, details }: Refusal, requestId: string): string {
  return JSON.stringify({ errors: [{ message }], success: false, error: { code, message, ...(details ? { details } : {}) }, meta: { requestId } })
}

export function refusalResponse(refusal: Refusal): Response {
  const requestId = `req_${fastUlid()}`
  return new Response(refusalBody(refusal, requestId), {
    status: refusal.status,
    headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId, 'Cache-Control': 'no-store' },
  })
}

/** Writes the refusal; `close` ends the connection after it (a body left unread). Returns the request id. */
export function writeRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal, close = false): string {
  const requestId = requestIdFrom(new NodeHeaderReader(req.headers))
  const body = refusalBody(refusal, requestId)
  res.writeHead(refusal.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    ...(close ? { Connection: 'close' } : {}),
  })
  res.end(body)
  return requestId
}
