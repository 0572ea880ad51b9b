import { isIP } from 'node:net'

/**
 * Which proxies in front of the server are trusted to append the client address to
 * X-Forwarded-For: the right-most `hops` entries (the peer counts as the first), or every
 * peer whose address is in `addresses` (IPs and CIDRs). `hops: 0` trusts nothing: the peer
 * itself is the client.
 */
export type TrustProxy = { kind: 'hops'; hops: number } | { kind: 'addresses'; addresses: string[] }

export const TRUST_NOTHING: TrustProxy = { kind: 'hops', hops: 0 }

/** Whether a proxy is configured in front of the server at all. */
export const behindProxy = (trust: TrustProxy): boolean => trust.kind === 'addresses' || trust.hops > 0

function isAddressOrCidr(entry: string): boolean {
  const slash = entry.indexOf('/')
  if (slash === -1) return isIP(entry) !== 0
  const family = isIP(entry.slice(0, slash))
  const prefix = entry.slice(slash + 1)
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false
  return Number(prefix) <= (family === 4 ? 32 : 128)
}

/**
 * `false`/`no`/`0` trust nothing; a number trusts that many hops; `true`/`yes` are kept as one
 * hop (older configurations meant "one reverse proxy"; trusting every hop would let the client
 * choose its own address); anything else is a comma list of proxy IPs/CIDRs. Null when malformed.
 */
export function parseTrustProxy(value: string): TrustProxy | null {
  const v = value.trim().toLowerCase()
  if (v === 'false' || v === 'no') return TRUST_NOTHING
  if (v === 'true' || v === 'yes') return { kind: 'hops', hops: 1 }
  if (/^\d+$/.test(v)) return { kind: 'hops', hops: Number(v) }
  const addresses = v.split(',').map((e) => e.trim()).filter(Boolean)
  if (addresses.length === 0 || !addresses.every(isAddressOrCidr)) return null
  return { kind: 'addresses', addresses }
}
