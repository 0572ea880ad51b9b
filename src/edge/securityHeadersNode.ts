/**
 * The security headers (./securityHeaders.js, the one definition) on Node's answers: set on
 * every response before any handler runs (a handler may only add to them), and
 * Strict-Transport-Security when the request came over HTTPS: on a TLS socket, or with
 * `X-Forwarded-Proto: https` from a proxy TRUST_PROXY trusts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'

import { peerIsTrustedProxy } from './clientIp'
import { NodeHeaderReader } from './headers'
import { requestScheme } from './origin'
import { securityHeaders, STRICT_TRANSPORT_SECURITY } from './securityHeaders.js'

const HEADERS = Object.entries(securityHeaders())

export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse): void {
  for (const [name, value] of HEADERS) res.setHeader(name, value)
  const headers = new NodeHeaderReader(req.headers)
  const encrypted = (req.socket as Partial<TLSSocket>).encrypted === true
  if (requestScheme(headers, { trustProxy: peerIsTrustedProxy(headers), encrypted }) === 'https') {
    res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY)
  }
}

/** The same headers as raw header lines, for answers written straight to the socket (./clientErrors). */
export const SECURITY_HEADER_LINES = HEADERS.map(([name, value]) => `${name}: ${value}\r\n`).join('')
