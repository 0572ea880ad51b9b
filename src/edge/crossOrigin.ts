/**
 * Console writes only from the service's own origin. Payload's session cookie authenticates the
 * console (Payload's REST, the console's endpoints, Next's server actions), and a browser sends
 * it with a request another page starts: `SameSite=Lax` stops other sites, not other origins of
 * the same site (a sibling subdomain, another port of the host). So a state-changing request
 * that carries the session cookie must say it comes from this origin: its `Origin` (else its
 * `Referer`) names the configured public URL (APP_PUBLIC_URL) or the origin the request was
 * addressed to: the scheme it came over and its `Host` (or a trusted proxy's `X-Forwarded-Host`),
 * port included; otherwise 403 `auth.cross_origin`, before anything reads the body. A request
 * without the cookie (the extension's bearer token, a sign-in) is not this rule's business, nor
 * is a read.
 */
import { getConfig } from '../platform/config'
import { peerIsTrustedProxy } from './clientIp'
import type { HeaderReader } from './headers'
import { requestScheme } from './origin'
import type { Refusal } from './refusal'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Payload's session cookie (its cookiePrefix `payload`): the console's credential. */
const SESSION_COOKIE_NAME = 'payload-token'

export const CROSS_ORIGIN: Refusal = {
  status: 403,
  code: 'auth.cross_origin',
  message: 'This request must come from the console’s own origin.',
  details: [{ field: 'origin', constraint: 'same_origin' }],
}

/**
 * Whether the request carries the console's session cookie, as Payload finds it: Payload's
 * authentication (its `parseCookies` in `payload/dist/utilities`, not exported) splits the header
 * at `;`, each pair at its first `=`, and trims the name, so `payload-token =x` is a session too.
 * test/security/crossOrigin.test.ts holds this to Payload's own answer for every variant.
 */
export function hasSessionCookie(headers: HeaderReader): boolean {
  const cookie = headers.get('cookie')
  if (!cookie || !cookie.includes(SESSION_COOKIE_NAME)) return false
  for (const pair of cookie.split(';')) {
    const equals = pair.indexOf('=')
    if (equals !== -1 && pair.slice(0, equals).trim() === SESSION_COOKIE_NAME) return true
  }
  return false
}

/** The origin a URL text names (`https://host:port`), or undefined. */
function originOf(text: string | null | undefined): string | undefined {
  if (!text || text === 'null') return undefined
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

/** The hosts (`host[:port]`) this request was addressed to: its Host, the URL a Fetch request was built with. */
function addressedHosts(headers: HeaderReader, urlHost: string | undefined): string[] {
  const hosts = [headers.get('host')?.trim().toLowerCase(), urlHost?.toLowerCase()]
  if (peerIsTrustedProxy(headers)) hosts.push(headers.get('x-forwarded-host')?.split(',').pop()?.trim().toLowerCase())
  return hosts.filter((h): h is string => !!h)
}

/**
 * Whether this is a cookie-authenticated write from anywhere but this service's origin.
 * `url`: a Fetch request's URL (Next builds it from the scheme and Host it was addressed to);
 * without one, the connection's scheme (`encrypted`: a TLS socket; a trusted proxy's
 * X-Forwarded-Proto; https when BEHIND_TLS says a TLS proxy is in front) and the Host header.
 */
export function isCrossOriginWrite(method: string, headers: HeaderReader, url?: string, encrypted = false): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false
  if (!hasSessionCookie(headers)) return false
  // `Origin: null` (a sandboxed frame, a redirect chain) names no origin: refused, Referer or not.
  const origin = headers.get('origin')
  const from = origin !== null ? originOf(origin) : originOf(headers.get('referer'))
  if (from === undefined) return true
  if (from === originOf(getConfig().branding.publicUrl)) return false
  const addressed = url === undefined ? undefined : new URL(url)
  // Behind a TLS proxy (BEHIND_TLS) a plain-HTTP request was HTTPS to its client.
  const scheme = addressed
    ? addressed.protocol.slice(0, -1)
    : requestScheme(headers, { trustProxy: peerIsTrustedProxy(headers), encrypted: encrypted || getConfig().behindTls })
  // Scheme, host and port: `https://host` is not `http://host`, nor `http://host:8080`.
  return !addressedHosts(headers, addressed?.host).some((host) => originOf(`${scheme}://${host}`) === from)
}
