/**
 * The Node HTTP server in front of the app (server.ts builds it; tests build the same one
 * with other handlers): the client address stamped into X-Forwarded-For, the security
 * headers on every answer (./securityHeadersNode; the API's handler writes them with its
 * own), absolute-form targets made origin form
 * (never a redirect to another host), header and body
 * timeouts, one body limit for every route (./bodyLimit; /api/v1 reads its bodies against the
 * same), enveloped answers to the errors Node detects itself, and /api/v1 routed to the
 * API's own handler, /openapi.json and /docs to `reference`, everything else to `other` (Next).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

import { fastUlid } from './requestId'
import { getConfig } from '../platform/config'
import { limitRequestBody } from './bodyLimit'
import { CROSS_ORIGIN, isCrossOriginWrite } from './crossOrigin'
import { NodeHeaderReader } from './headers'
import { writeRefusal } from './refusal'
import { checkServerAction, isServerActionCall } from './serverActions'
import { onClientError, onConnectRequest } from './clientErrors'
import { HEADERS_SECONDS, limitConnections } from './connectionLimits'
import { cookieRefusal } from './cookieLimit'
import { type HeaderList, isEncrypted, securityHeadersFor, setHeaderList } from './securityHeadersNode'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** The API's handler writes the security headers itself, with its own, in one writeHead. */
export type ApiHandler = (req: IncomingMessage, res: ServerResponse, securityHeaders: HeaderList) => void

/** Paths answered beside the API and Next (the OpenAPI document and the reference page). */
export type PathHandler = { matches(path: string): boolean; handle: Handler }

const API_V1 = '/api/v1'

export const isApiPath = (path: string): boolean =>
  path === API_V1 || path.startsWith(`${API_V1}/`) || path.startsWith(`${API_V1}?`)

/**
 * Appends the socket address to X-Forwarded-For, as a proxy does. The right-most entry is
 * then always the real peer, and src/edge/clientIp walks leftwards from it only through the
 * proxies TRUST_PROXY names: a header the client sent can never stand in for the peer.
 */
export function stampPeerAddress(req: IncomingMessage): void {
  const peer = req.socket.remoteAddress ?? 'unknown'
  const given = req.headers['x-forwarded-for']
  const chain = Array.isArray(given) ? given.join(', ') : given
  req.headers['x-forwarded-for'] = chain ? `${chain}, ${peer}` : peer
}

/**
 * An absolute-form request target (`GET http://other.example/admin HTTP/1.1`, what a client
 * sends to a proxy) becomes origin form (`/admin`) before any handler sees it: handlers build
 * redirects and links from req.url, and must never point at a host the client named there.
 * Returns false for a target that is neither (answered 400 by the caller).
 */
export function toOriginForm(req: IncomingMessage): boolean {
  const target = req.url ?? '/'
  if (target.startsWith('/')) return true
  if (target === '*' && req.method === 'OPTIONS') return true
  if (!/^https?:\/\//i.test(target)) return false
  try {
    const { pathname, search } = new URL(target)
    req.url = `${pathname}${search}`
    return true
  } catch {
    return false
  }
}

/** The envelope for a request target that is not a path (nor an absolute URL). */
function refuseTarget(res: ServerResponse): void {
  const requestId = `req_${fastUlid()}`
  const body = JSON.stringify({
    success: false,
    error: { code: 'validation.failed', message: 'The request target is not a path.', details: [{ field: '(request)', constraint: 'http_syntax' }] },
    meta: { requestId },
  })
  res.writeHead(400, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
  })
  res.end(body)
}

/**
 * `metrics` answers GET /metrics on this port (server/metricsEndpoint; it is 404 there
 * unless METRICS_TOKEN is set); without it /metrics goes to `other` like any page.
 * `reference` answers the paths it matches (/openapi.json and /docs, from endpoints/reference).
 */
export function createAppServer({
  api,
  reference,
  other,
  metrics,
}: {
  api: ApiHandler
  reference?: PathHandler
  other: Handler
  metrics?: Handler
}): Server {
  const timeoutMs = getConfig().httpRequestTimeoutSeconds * 1000
  // A request's headers come first and fast: a connection that sends none is not held for the whole request's time.
  const headersMs = Math.min(timeoutMs, HEADERS_SECONDS * 1000)
  // The response on each socket (the latest): a Node-level error while one is being written
  // closes the connection without writing a second status line into it.
  const answering = new WeakMap<Socket, ServerResponse>()
  const server = createServer(
    {
      // Whole request (headers and body) must arrive within the timeout, its headers sooner; Node
      // checks expired requests on this interval, so keep it a fraction of the shorter one.
      requestTimeout: timeoutMs,
      headersTimeout: headersMs,
      connectionsCheckingInterval: Math.max(250, Math.min(30_000, Math.floor(headersMs / 4))),
    },
    (req, res) => {
      stampPeerAddress(req)
      answering.set(req.socket, res)
      const url = toOriginForm(req) ? (req.url ?? '/') : undefined
      // After toOriginForm: an uploaded file's policy follows from its path (./securityHeadersNode).
      const security = securityHeadersFor(req)
      if (url !== undefined && isApiPath(url)) return api(req, res, security)
      setHeaderList(res, security)
      const headers = new NodeHeaderReader(req.headers)
      // A Cookie header no browser sends (./cookieLimit), before Next or Payload parses it.
      const cookies = cookieRefusal(headers)
      if (url === undefined) refuseTarget(res)
      else if (cookies) writeRefusal(req, res, cookies, true)
      // Pages and server actions (Payload's REST under /api/ checks the same in its guard,
      // ./payloadRestGuard); the body is left unread, so the connection closes.
      else if (!url.startsWith('/api/') && isCrossOriginWrite(req.method ?? 'GET', headers, undefined, isEncrypted(req))) writeRefusal(req, res, CROSS_ORIGIN, true)
      else {
        const dispatch = () => {
          if (metrics && (url === '/metrics' || url.startsWith('/metrics?'))) metrics(req, res)
          else if (reference?.matches(url.split('?')[0]!)) reference.handle(req, res)
          else other(req, res)
        }
        // A server action's body may be held back until it is read whole (./serverActions); the
        // body limit, set up after, counts the bytes before that.
        const action = isServerActionCall(req) ? checkServerAction(req, res, dispatch) : 'go'
        if (action === 'refused' || !limitRequestBody(req, res)) return
        if (action === 'go') dispatch()
      }
    },
  )
  limitConnections(server)
  server.on('connect', (_req, socket: Socket) => onConnectRequest(socket))
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) =>
    onClientError(err, socket, (s) => {
      const res = answering.get(s)
      return res !== undefined && res.headersSent && !res.writableFinished
    }),
  )
  return server
}
