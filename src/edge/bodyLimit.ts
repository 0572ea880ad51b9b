/**
 * One body limit for every route the Node server answers besides /api/v1 (whose adapter reads
 * its own bodies against the same limit): Payload's REST, the console's endpoints, Next's pages
 * and server actions. A body is refused with 413 before anything parses it or checks who sent
 * it: at once when its Content-Length announces more than the limit, else as soon as the bytes
 * received pass it (a chunked body). Multipart bodies (uploads) have a limit of their own
 * (HTTP_UPLOAD_LIMIT_BYTES); every other kind HTTP_BODY_LIMIT_BYTES.
 *
 * The count sits in the request's own `push` (what Node's parser calls with each piece of the
 * body), so it holds whoever reads the body later, and however: no listener of ours takes the
 * stream's data from its reader.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { getConfig } from '../platform/config'
import { bodyTooLarge } from '../platform/errors'
import { logger } from '../platform/logging'
import { writeRefusal } from './refusal'

/** The limit that applies to a body of this Content-Type. */
export function bodyLimitFor(contentType: string | undefined): number {
  const { json, upload } = getConfig().bodyLimits
  return contentType?.trimStart().toLowerCase().startsWith('multipart/form-data') ? upload : json
}

/** How long the rest of a refused body is read and dropped before the connection closes. */
const LINGER_MS = 2_000

/**
 * A lingering close: once the answer is written the server stops sending and keeps reading (and
 * dropping) what the client still sends, for at most LINGER_MS, then closes. Closed at once, the
 * bytes still arriving made the kernel answer with a reset, which can reach the client before it
 * reads the 413 (it saw the connection reset and no answer).
 */
function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket as IncomingMessage['socket'] & { destroySoon?: () => void }
  socket.destroySoon = () => {
    socket.end()
    setTimeout(() => socket.destroy(), LINGER_MS).unref()
  }
}

/** The 413, and the connection closes (the rest of the body is never parsed). */
function refuse(req: IncomingMessage, res: ServerResponse, limit: number, receivedBytes?: number): void {
  if (res.headersSent) return void req.socket.destroy()
  const error = bodyTooLarge(limit)
  lingerOnClose(req)
  const requestId = writeRefusal(req, res, { status: 413, code: error.code, message: error.message, details: error.details }, true)
  logger().warn(
    { requestId, route: `${req.method} ${(req.url ?? '/').split('?')[0]}`, announcedBytes: req.headers['content-length'], receivedBytes, limit },
    'request.body_too_large',
  )
}

/**
 * Holds this request's body to its limit. False when it is refused already (its Content-Length
 * says too much): the caller passes it on to no handler.
 */
export function limitRequestBody(req: IncomingMessage, res: ServerResponse): boolean {
  const limit = bodyLimitFor(req.headers['content-type'])
  const announced = req.headers['content-length']
  if (announced !== undefined && Number(announced) > limit) {
    refuse(req, res, limit)
    return false
  }
  if (announced === undefined && req.headers['transfer-encoding'] === undefined) return true
  let received = 0
  const push = req.push
  req.push = function pushWithinLimit(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk !== null && received <= limit) {
      received += (chunk as Buffer).length
      if (received > limit) {
        refuse(req, res, limit, received)
        return true
      }
    }
    // Past the limit, the rest is dropped while the connection lingers (above), then closes.
    if (received > limit) return true
    return push.call(this, chunk, encoding)
  }
  return true
}
