/**
 * The security headers (./securityHeaders.js, the one definition) on Node's answers, and
 * Strict-Transport-Security when the request came over HTTPS: on a TLS socket, or with
 * `X-Forwarded-Proto: https` from a proxy TRUST_PROXY trusts. Pages get them set on the
 * response before their handler runs (a handler may only add to them); the API writes them in
 * its one writeHead with its own headers (./nodeAdapter), which spares Node a setHeader each.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'

import { peerIsTrustedProxy } from './clientIp'
import { NodeHeaderReader } from './headers'
import { requestScheme } from './origin'
import { isUploadFilePath, securityHeaders, STRICT_TRANSPORT_SECURITY, uploadFileSecurityHeaders } from './securityHeaders.js'

const HEADERS = Object.entries(securityHeaders())

/** Header names and values in turn (`[name, value, name, value, …]`), as Node's writeHead takes them. */
export type HeaderList = readonly string[]

const PLAIN: HeaderList = HEADERS.flat()
const OVER_HTTPS: HeaderList = [...PLAIN, 'Strict-Transport-Security', STRICT_TRANSPORT_SECURITY]
const FILE: HeaderList = Object.entries(uploadFileSecurityHeaders()).flat()
const FILE_OVER_HTTPS: HeaderList = [...FILE, 'Strict-Transport-Security', STRICT_TRANSPORT_SECURITY]

/** Whether the request came over a TLS socket of this server. */
export const isEncrypted = (req: IncomingMessage): boolean => (req.socket as Partial<TLSSocket>).encrypted === true

/** The security headers this request's answer carries (shared lists: never modify); an uploaded file gets its own policy. */
export function securityHeadersFor(req: IncomingMessage): HeaderList {
  const headers = new NodeHeaderReader(req.headers)
  const https = requestScheme(headers, { trustProxy: peerIsTrustedProxy(headers), encrypted: isEncrypted(req) }) === 'https'
  if (isUploadFilePath(req.url ?? '/')) return https ? FILE_OVER_HTTPS : FILE
  return https ? OVER_HTTPS : PLAIN
}

/** Sets a list on a response whose handler writes its own head later (pages, Next). */
export function setHeaderList(res: ServerResponse, list: HeaderList): void {
  for (let i = 0; i < list.length; i += 2) res.setHeader(list[i]!, list[i + 1]!)
}

export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse): void {
  setHeaderList(res, securityHeadersFor(req))
}

/** The same headers as raw header lines, for answers written straight to the socket (./clientErrors). */
export const SECURITY_HEADER_LINES = HEADERS.map(([name, value]) => `${name}: ${value}\r\n`).join('')
