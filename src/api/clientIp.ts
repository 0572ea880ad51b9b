import { getConfig } from '../config'
import type { HeaderReader } from '../http/headers'

/**
 * The server (server.ts) overwrites `x-forwarded-for` with the socket address unless
 * TRUST_PROXY is set, in which case it appends it, as proxies do. With a trusted proxy the
 * client is the left-most address; otherwise the one the server wrote.
 */
export function clientIp(headers: HeaderReader): string {
  const forwarded = headers.get('x-forwarded-for')
  if (!forwarded) return 'unknown'
  const parts = forwarded.split(',').map((p) => p.trim()).filter(Boolean)
  const ip = getConfig().trustProxy ? parts[0] : parts[parts.length - 1]
  return ip ?? 'unknown'
}
