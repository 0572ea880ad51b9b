/**
 * How many connections one server process holds, and for how long one may idle. Each open
 * connection is a file descriptor: a process that spends them all on idle keep-alive sockets
 * (one client held ~20,000) can no longer open its database's log or an upload, so every write
 * failed until the holder let go. So:
 * - at most `max` connections per process, below the descriptor limit less DESCRIPTOR_RESERVE
 *   for the database, its log and workers, uploads, the metrics port and the logs; past it Node
 *   closes a new connection as it is accepted (`server.maxConnections`), and an existing one
 *   goes on (a signed-in console, a login on it);
 * - at most `perAddress` at once from one client address (an IPv6 client by its /64, which one
 *   host can rotate addresses within; a trusted proxy's are not counted: they carry many
 *   clients); past it a new connection is closed as it is accepted, as past the process cap: held
 *   open to answer it, a client trickling bytes kept each for seconds and one address could still
 *   fill the process;
 * - a connection with no request is closed after `idleSeconds` once an answer is sent
 *   (keep-alive), and must send its first request's headers within HEADERS_SECONDS.
 * Refusals are logged at warn, at most once a second each (`http.connections_refused`).
 */
import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { isIPv6, type Socket } from 'node:net'

import { getConfig } from '../platform/config'
import { logger } from '../platform/logging'
import { addressIsTrustedProxy } from './clientIp'

/** Descriptors kept back from connections: SQLite's file, log and workers, uploads, the metrics port, stdout. */
export const DESCRIPTOR_RESERVE = 256
/** Without a limit of its own, a process holds at most this many connections (~6 KB each). */
const DEFAULT_MAX = 10_000
/** A request's headers must arrive within this of its connection's opening, however long the request may take. */
export const HEADERS_SECONDS = 10

/** This process's open-file limit (Linux: the soft "Max open files"), or undefined where it cannot be read. */
export function descriptorLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]
    return line === undefined || line === 'unlimited' ? undefined : Number(line)
  } catch {
    return undefined
  }
}

/** The connection cap: the configured one, or the default, never past the descriptor limit less the reserve. */
export function connectionCap(configured = getConfig().connections.max, descriptors = descriptorLimit()): number {
  const ceiling = descriptors === undefined ? Infinity : Math.max(16, descriptors - DESCRIPTOR_RESERVE)
  return Math.min(configured ?? DEFAULT_MAX, ceiling)
}

/** Counts refusals and logs them at most once a second. */
function refusalLog(kind: string): (address: string | undefined) => void {
  let count = 0
  let timer: NodeJS.Timeout | undefined
  return (address) => {
    count += 1
    if (timer) return
    const first = address
    timer = setTimeout(() => {
      logger().warn({ kind, refused: count, address: first }, 'http.connections_refused')
      count = 0
      timer = undefined
    }, 1_000)
    timer.unref()
  }
}

/** The key a client address counts under: an IPv4 address, or an IPv6 address's /64 (`::ffff:` IPv4 as IPv4). */
export function addressKey(address: string): string {
  if (!isIPv6(address)) return address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]!
  const [head = '', tail = ''] = address.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`
}

/** Applies the caps and idle times to a server (src/edge/nodeServer). */
export function limitConnections(server: Server): void {
  const { perAddress, idleSeconds } = getConfig().connections
  server.maxConnections = connectionCap()
  server.keepAliveTimeout = idleSeconds * 1000
  const dropped = refusalLog('process')
  server.on('drop', (data?: { remoteAddress?: string }) => dropped(data?.remoteAddress))
  if (perAddress === 0) return
  const overAddress = refusalLog('address')
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress
    if (!address || addressIsTrustedProxy(address)) return
    const key = addressKey(address)
    const count = open.get(key) ?? 0
    if (count >= perAddress) {
      overAddress(address)
      return void socket.destroy()
    }
    open.set(key, count + 1)
    socket.once('close', () => {
      const left = open.get(key)! - 1
      if (left === 0) open.delete(key)
      else open.set(key, left)
    })
  })
}
