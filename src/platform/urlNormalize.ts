/**
 * The comparison key of a content URL: two links to the same page give the same key.
 * Scheme and host lowercased, default port dropped, trailing slashes of the path dropped
 * ("/" kept for the root), fragment dropped, tracking parameters (utm_*, fbclid, gclid)
 * dropped, the other parameters kept as written and in order. Pure; null for anything
 * that is not an absolute http(s) URL.
 */
import { isAbsoluteHttpUrl } from './urlPolicy'

const TRACKING = /^(utm_.*|fbclid|gclid)$/i

function paramName(pair: string): string {
  const raw = pair.split('=', 1)[0]!
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    return raw
  }
}

export function normalizeUrl(value: string): string | null {
  if (!isAbsoluteHttpUrl(value)) return null
  // WHATWG URL lowercases scheme and host, drops the default port and resolves dot segments.
  const url = new URL(value)
  const path = url.pathname.replace(/\/+$/, '') || '/'
  // The raw query, not URLSearchParams: re-serialising would change how values are encoded.
  const params = url.search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && !TRACKING.test(paramName(pair)))
  const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : ''
  return `${url.protocol}//${auth}${url.host}${path}${params.length ? `?${params.join('&')}` : ''}`
}

/** The stored key: the normalised URL, or the value itself for a legacy value that is no URL. */
export const urlKeyOf = (value: string): string => normalizeUrl(value) ?? value
