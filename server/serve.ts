/**
 * One server process (the only one when WEB_CONCURRENCY=1, else a cluster worker): starts
 * the app, listens, serves /metrics, and on SIGTERM/SIGINT stops gracefully:
 *
 * 1. /ready answers 503 (`draining`) and the listener closes: new connections are refused;
 * 2. requests in flight finish (bounded by SHUTDOWN_TIMEOUT_SECONDS; then their connections
 *    are cut), idle keep-alive connections are closed, answers carry `Connection: close`;
 * 3. the follow-up runner finishes the job in hand and claims no more;
 * 4. the database connections close, `server.stopped` is logged, the logs are flushed, exit 0.
 */
import cluster from 'node:cluster'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Payload } from 'payload'

import { databaseLabel, type AppConfig } from '../src/platform/config'
import { closeDatabase, engine } from '../src/db/engine'
import { type ApiHandler, createAppServer, type PathHandler } from '../src/edge/nodeServer'
import type { HeaderList } from '../src/edge/securityHeadersNode'
import { stopFollowUps } from '../src/jobs/followUps'
import { flushLogs, logCrashes, logger, survivePastErrors } from '../src/platform/logging'
import { collectQueueDepth, observeRequest } from '../src/platform/metrics'
import { beginDraining } from '../src/startup/readiness'
import { answerPrimaryScrapes } from './clusterMetrics'
import { METRICS_HOST, metricsOnMainPort, metricsServer } from './metricsEndpoint'
import { warmRoutes } from './warmRoutes'

/** A handler may answer asynchronously: a promise it returns is watched (see `answered`). */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>

/**
 * Runs a page handler so that nothing it throws, now or later, escapes: the error is this
 * request's (logged at error, 500 if nothing was answered yet, else the connection is cut).
 */
function answered(handler: Handler, req: IncomingMessage, res: ServerResponse): void {
  const failed = (err: unknown) => {
    logger().error({ err, route: `${req.method} ${(req.url ?? '/').split('?')[0]}` }, 'request.failed')
    if (res.headersSent) return void res.destroy()
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('Internal Server Error')
  }
  try {
    const pending = handler(req, res)
    if (pending) pending.catch(failed)
  } catch (err) {
    failed(err)
  }
}

/**
 * What the entry point builds: Payload started, the API handler, the reference paths
 * (/openapi.json, /docs), the rest (Next), and the paths of the rest to ask once before listening
 * (./warmRoutes).
 */
export type App = { payload: Payload; api: ApiHandler; reference?: PathHandler; other: Handler; warm?: readonly string[] }

const IDLE_SWEEP_MS = 100

/**
 * The app started, or one `server.start_failed` line naming the database (no credentials) and
 * the cause, and exit code 1 (an orchestrator, or the cluster primary, decides what next): an
 * unreachable database ends a start like this, not with a stack trace on stderr per attempt.
 */
async function startOrExit(config: AppConfig, load: () => Promise<App>): Promise<App> {
  try {
    return await load()
  } catch (err) {
    const cause = err as { name?: unknown; message?: unknown; code?: unknown }
    logger().fatal(
      { database: databaseLabel(config.database.uri, config.database.name), error: `${String(cause.name)}: ${String(cause.message)}`, code: cause.code, err },
      'server.start_failed',
    )
    flushLogs()
    // For a person at a terminal: the cause in one line (its message may span a few), no stack.
    process.stderr.write(`${String(cause.name)}: ${String(cause.message)}\n`)
    process.exit(1)
  }
}

export async function serve(config: AppConfig, load: () => Promise<App>): Promise<void> {
  logCrashes()
  const log = logger()
  const app = await startOrExit(config, load)
  // Listening warm: no user's request loads a route's code (./warmRoutes).
  if (app.warm?.length) await warmRoutes(app.warm, (req, res) => answered(app.other, req, res))
  collectQueueDepth(() => engine().followUpDepth(app.payload, new Date()))
  if (cluster.isWorker) answerPrimaryScrapes()

  let stopping = false
  /** While draining, every answer closes its connection, so keep-alive clients go away. */
  const closingAware =
    <H extends Handler | ApiHandler>(handler: H): H =>
    ((req: IncomingMessage, res: ServerResponse, security: HeaderList) => {
      if (stopping) res.setHeader('Connection', 'close')
      handler(req, res, security)
    }) as H
  const server = createAppServer({
    api: closingAware(app.api),
    reference: app.reference && { matches: app.reference.matches, handle: closingAware(app.reference.handle) },
    other: closingAware((req, res) => {
      const started = performance.now()
      res.once('finish', () => observeRequest('next', res.statusCode, performance.now() - started))
      answered(app.other, req, res)
    }),
    metrics: closingAware(metricsOnMainPort(config.metrics.token)),
  })

  // In a cluster the primary serves METRICS_PORT for all workers.
  let metricsListener: Server | undefined
  if (config.metrics.port && !cluster.isWorker) {
    metricsListener = metricsServer().listen(config.metrics.port, METRICS_HOST, () =>
      log.info({ host: METRICS_HOST, port: config.metrics.port }, 'metrics.listening'),
    )
  }

  server.listen(config.port, async () => {
    // From here on no error ends the process (src/platform/logging, logCrashes).
    survivePastErrors()
    log.info({ port: config.port }, 'server.listening')
    flushLogs()
  })

  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    beginDraining()
    // The listener closes first, so once `server.stopping` shows, new connections are refused.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    metricsListener?.close()
    log.info({ signal, timeoutSeconds: config.shutdownTimeoutSeconds }, 'server.stopping')
    flushLogs()
    // server.close() closes idle connections once; a keep-alive one that turns idle later
    // (its last answer sent) is closed by the next sweep.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS)
    let timer: NodeJS.Timeout | undefined
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), config.shutdownTimeoutSeconds * 1000))),
    ])
    clearInterval(sweep)
    clearTimeout(timer)
    if (timedOut) {
      log.warn({ timeoutSeconds: config.shutdownTimeoutSeconds }, 'server.shutdown_timeout')
      server.closeAllConnections()
    }
    try {
      await stopFollowUps()
      await closeDatabase(app.payload)
    } catch (err) {
      log.error({ err }, 'server.stop_failed')
    }
    log.info({ signal, timedOut }, 'server.stopped')
    flushLogs()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}
