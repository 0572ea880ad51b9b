import type { HeaderReader } from './headers'

/** A Host header value: a DNS name, IPv4 or bracketed IPv6 address, and an optional port. */
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/**
 * The origin the client addressed: the Host header, with the scheme of the connection, or
 * the last X-Forwarded-Proto when TRUST_PROXY says a proxy sets it. Not the server's listen
 * address (`fallback` is used only when Host is missing or malformed).
 */
export function requestOrigin(headers: HeaderReader, fallback: string, options: { trustProxy: boolean; encrypted: boolean }): string {
  const host = headers.get('host')?.trim()
  if (!host || !HOST.test(host)) return fallback
  return `${requestScheme(headers, options)}://${host.toLowerCase()}`
}

/** The scheme the client used: the connection's, or the last X-Forwarded-Proto of a trusted proxy. */
export function requestScheme(headers: HeaderReader, options: { trustProxy: boolean; encrypted: boolean }): 'http' | 'https' {
  if (options.trustProxy) {
    const forwarded = headers.get('x-forwarded-proto')?.split(',').pop()?.trim().toLowerCase()
    if (forwarded === 'http' || forwarded === 'https') return forwarded
  }
  return options.encrypted ? 'https' : 'http'
}
