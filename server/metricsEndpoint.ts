/**
 * GET /metrics. On the main port it needs `Authorization: Bearer <METRICS_TOKEN>` (compared
 * in constant time) and is 404 when no token is configured; on METRICS_PORT (bound to
 * 127.0.0.1 only) it needs none. In a cluster worker the text comes from the primary, which
 * sums every worker's values (server/cluster), so any worker answers for the whole server.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import cluster from 'node:cluster'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

import { logger } from '../src/platform/logging'
import { type MetricsText, registry } from '../src/platform/metrics'
import { askPrimaryForMetrics } from './clusterMetrics'

/** This process's metrics, or in a cluster worker every worker's, summed by the primary. */
export async function currentMetrics(): Promise<MetricsText> {
  if (cluster.isWorker) return askPrimaryForMetrics()
  return { contentType: registry.contentType, body: await registry.metrics() }
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Constant-time: both sides hashed to equal lengths first, so neither length nor prefix leaks. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : ''
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0
}

function envelope(res: ServerResponse, status: number, code: string, message: string, extra: Record<string, string> = {}): void {
  const body = JSON.stringify({ success: false, error: { code, message } })
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': String(Buffer.byteLength(body)), ...extra })
  res.end(body)
}

async function answer(res: ServerResponse, read: () => Promise<MetricsText>): Promise<void> {
  try {
    const { contentType, body } = await read()
    res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store', 'Content-Length': String(Buffer.byteLength(body)) })
    res.end(body)
  } catch (err) {
    logger().warn({ err }, 'metrics.collect_failed')
    envelope(res, 503, 'service.unavailable', 'Metrics could not be collected.')
  }
}

export const isMetricsPath = (url: string | undefined): boolean => url === '/metrics' || url?.startsWith('/metrics?') === true

/** /metrics on the main port. */
export function metricsOnMainPort(token: string | undefined): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (!token) return envelope(res, 404, 'route.not_found', 'No route GET /metrics.')
    if (req.method !== 'GET' && req.method !== 'HEAD') return envelope(res, 405, 'route.method_not_allowed', 'Only GET /metrics.', { Allow: 'GET, HEAD' })
    const header = req.headers.authorization
    if (!header) return envelope(res, 401, 'auth.missing_token', 'A bearer token is required.', { 'WWW-Authenticate': 'Bearer' })
    if (!bearerMatches(header, token)) return envelope(res, 401, 'auth.invalid_token', 'The token is not valid.', { 'WWW-Authenticate': 'Bearer' })
    void answer(res, currentMetrics)
  }
}

/** The metrics-only server on 127.0.0.1:port (never another interface), no token. */
export function metricsServer(read: () => Promise<MetricsText> = currentMetrics): Server {
  return createServer((req, res) => {
    if (!isMetricsPath(req.url)) return envelope(res, 404, 'route.not_found', `No route ${req.method} ${req.url}.`)
    void answer(res, read)
  })
}

export const METRICS_HOST = '127.0.0.1'
