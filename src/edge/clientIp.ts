import { BlockList, isIP } from 'node:net'

import { getConfig, type AppConfig, type TrustProxy } from '../platform/config'
import type { HeaderReader } from './headers'

/**
 * The one place the client address is derived (rate limits, refresh-token records, the
 * console sign-in). X-Forwarded-For is read as a chain whose right-most entry is the peer:
 * server.ts appends the socket address to whatever arrived (src/edge/nodeServer). Where
 * there is no socket (the in-process test transport; a bare `next start`, where Next writes
 * the socket address only when the header is absent) the right-most entry stands for the peer.
 *
 * As Express's `trust proxy`: start at the peer and walk leftwards while the current address
 * is a trusted proxy; the first untrusted one is the client. Entries left of it were written
 * by the client and are never read.
 */
export function clientIp(headers: HeaderReader): string {
  const forwarded = headers.get('x-forwarded-for')
  if (!forwarded) return 'unknown'
  const trusted = trustOf(getConfig())
  // Entries from the right (empty ones skipped); the walk stops at the first untrusted one,
  // so a request through no proxy reads only its last entry.
  let client: string | undefined
  let hop = 0
  let end = forwarded.length
  while (end > 0) {
    const comma = forwarded.lastIndexOf(',', end - 1)
    const entry = normalize(forwarded.slice(comma + 1, end).trim())
    end = comma === -1 ? 0 : comma
    if (!entry) continue
    if (client !== undefined) {
      if (!trusted(client, hop)) break
      hop += 1
    }
    client = entry
  }
  if (client === undefined) return 'unknown'
  // A proxy that wrote garbage names no client; all such requests share one budget.
  return isIP(client) === 0 ? 'unknown' : client
}

/** True when the peer (the right-most X-Forwarded-For entry) is a trusted proxy, whose X-Forwarded-Proto may be believed. */
export function peerIsTrustedProxy(headers: HeaderReader): boolean {
  const config = getConfig()
  if (trustsNothing(config.trustProxy)) return false
  const forwarded = headers.get('x-forwarded-for')
  if (!forwarded) return false
  const peer = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim()
  return !!peer && trustOf(config)(normalize(peer), 0)
}

/** True when a socket's peer address is a trusted proxy (its connections carry many clients). */
export function addressIsTrustedProxy(address: string): boolean {
  const config = getConfig()
  return !trustsNothing(config.trustProxy) && trustOf(config)(normalize(address), 0)
}

const trustsNothing = (trust: TrustProxy): boolean => trust.kind === 'hops' && trust.hops === 0

/** `::ffff:10.0.0.1` (a dual-stack socket's IPv4 peer) is 10.0.0.1; `[::1]` is ::1. */
function normalize(entry: string): string {
  // Most entries are plain addresses: no brackets, no IPv4-mapped prefix to strip.
  if (entry.charCodeAt(0) !== 91 /* [ */ && entry.charCodeAt(0) !== 58 /* : */) return entry
  const bare = entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)
  return mapped ? mapped[1]! : bare
}

type Trusted = (address: string, hop: number) => boolean

let compiled: { config: AppConfig; trusted: Trusted } | undefined

/** The trust predicate, built once per configuration. `hop` 0 is the peer. */
function trustOf(config: AppConfig): Trusted {
  if (compiled?.config !== config) compiled = { config, trusted: compile(config.trustProxy) }
  return compiled.trusted
}

function compile(trust: TrustProxy): Trusted {
  if (trust.kind === 'hops') return (_address, hop) => hop < trust.hops
  const list = new BlockList()
  for (const entry of trust.addresses) {
    const [given, prefix] = entry.split('/') as [string, string | undefined]
    const address = prefix === undefined ? normalize(given) : given
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (prefix === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(prefix), type)
  }
  return (address) => {
    const family = isIP(address)
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4')
  }
}
