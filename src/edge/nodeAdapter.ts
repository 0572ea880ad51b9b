/**
 * Node's http request/response <-> the API's transport-neutral request and result, so
 * server.ts hands /api/v1 straight to the dispatcher: no Fetch Request or Headers to build,
 * no Response to read back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Payload } from 'payload'

import type { ApiDispatcher } from './router'
import { type ApiRequest, type ApiResult, bodyLength } from './route'
import { peerIsTrustedProxy } from './clientIp'
import { ApiError, bodyTooLarge } from '../platform/errors'
import { logger } from '../platform/logging'
import { NodeHeaderReader } from './headers'
import { requestOrigin } from './origin'
import type { HeaderList } from './securityHeadersNode'

/**
 * The body stopped before its end: the client went away, or the server's request timeout
 * closed the connection (and already answered 408, src/edge/clientErrors). Either way a
 * client's doing: a 408 for the log, never a 500 with a stack.
 */
const bodyIncomplete = () =>
  new ApiError(408, 'validation.failed', 'The request body did not arrive in full.', [
    { field: '(body)', constraint: 'incomplete' },
  ])

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      req.resume()
      reject(bodyTooLarge(limit))
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        // Stop keeping it; let the rest drain so the answer can still be written.
        req.off('data', onData)
        req.resume()
        reject(bodyTooLarge(limit))
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', () => {
      logger().warn({ path: (req.url ?? '/').split('?')[0], receivedBytes: size, announcedBytes: req.headers['content-length'] }, 'request.aborted')
      reject(bodyIncomplete())
    })
  })
}

/** An /api/v1 request read straight off Node's parsed request (a class: no per-request closures). */
class NodeApiRequest implements ApiRequest {
  readonly method: string
  readonly path: string
  readonly search: string
  readonly headers: NodeHeaderReader
  private body: Promise<string> | undefined
  private addressed: string | undefined

  /** `listenOrigin` is the fallback for a request without a usable Host header. */
  constructor(
    private readonly req: IncomingMessage,
    readonly payload: Payload,
    private readonly listenOrigin: string,
  ) {
    // The request target as sent (`/api/v1/content?x=1`); `path` is its part below /api.
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    this.method = req.method ?? 'GET'
    this.path = (q === -1 ? url : url.slice(0, q)).slice('/api'.length)
    this.search = q === -1 ? '' : url.slice(q + 1)
    this.headers = new NodeHeaderReader(req.headers)
  }

  /** Read on first use: only answers carrying links need it. */
  get origin(): string {
    if (this.addressed === undefined) {
      const encrypted = (this.req.socket as { encrypted?: boolean }).encrypted === true
      this.addressed = requestOrigin(this.headers, this.listenOrigin, { trustProxy: peerIsTrustedProxy(this.headers), encrypted })
    }
    return this.addressed
  }

  text(limit: number): Promise<string> {
    return (this.body ??= readBody(this.req, limit))
  }
}

/**
 * Writes a result. `securityHeaders` (./securityHeadersNode) go first in the same head, for
 * a response that has none set yet (the API's); without them, the response's own stay.
 */
export function writeResult(res: ServerResponse, result: ApiResult, securityHeaders?: HeaderList): void {
  const body = result.body
  if (body !== null) result.headers['Content-Length'] = String(bodyLength(body))
  res.writeHead(result.status, securityHeaders ? withHeaders(securityHeaders, result.headers) : result.headers)
  if (body === null || typeof body === 'string' || Buffer.isBuffer(body)) {
    res.end(body ?? undefined)
    return
  }
  // Parts (a kept answer, then this request's meta) leave in one write with the headers.
  const parts = body as readonly Buffer[]
  res.cork()
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i])
  res.end(parts[parts.length - 1])
  res.uncork()
}

/** One flat list (`[name, value, …]`): Node validates each header once and keeps no header map. */
function withHeaders(list: HeaderList, headers: Record<string, string>): string[] {
  const all = list.slice()
  for (const name in headers) all.push(name, headers[name]!)
  return all
}

const DISPATCH_FAILED =
  '{"success":false,"error":{"code":"internal.error","message":"An unexpected error occurred."}}'

/** Serves one /api/v1 request on Node's http server: dispatch, then write the result with the security headers. */
export function serveApi(
  dispatch: ApiDispatcher,
  req: IncomingMessage,
  res: ServerResponse,
  payload: Payload,
  listenOrigin: string,
  securityHeaders: HeaderList,
): void {
  dispatch(new NodeApiRequest(req, payload, listenOrigin))
    .then((result) => writeResult(res, result, securityHeaders))
    .catch((err) => {
      // The dispatcher answers every error itself; this is a last resort.
      logger().error({ err }, 'server.api_dispatch_failed')
      if (!res.headersSent) res.writeHead(500, withHeaders(securityHeaders, { 'Content-Type': 'application/json; charset=utf-8' }))
      res.end(DISPATCH_FAILED)
    })
}
