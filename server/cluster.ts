/**
 * The cluster primary (WEB_CONCURRENCY > 1). It serves no request itself: it forks the
 * workers (each runs server/serve on the shared port; Node's cluster hands connections
 * out round-robin), restarts one that dies with an exponential backoff for as long as it
 * runs (it never exits because its workers died), forwards SIGTERM and
 * SIGINT to the workers and exits once they all have. Besides that it sums the workers'
 * metrics (prom-client's AggregatorRegistry) for METRICS_PORT and for a worker answering
 * /metrics with METRICS_TOKEN. The workers share its stdout: each writes whole lines in pieces
 * of at most 4 KiB, which no other process's write can split (src/platform/logging), so the primary
 * relays nothing (it did, at ~5% of the machine at 28,000 requests a second).
 *
 * The first worker starts alone (migrations, bootstrap and the demo seed run once, not
 * racing); the others are forked once it listens.
 */
import cluster, { type Worker } from 'node:cluster'
import type { Server } from 'node:http'

import { databaseLabel, type AppConfig } from '../src/platform/config'
import { flushLogs, logCrashes, logger, survivePastErrors } from '../src/platform/logging'
import { answerMetricsRequests, clusterMetrics } from './clusterMetrics'
import { METRICS_HOST, metricsServer } from './metricsEndpoint'

const FIRST_BACKOFF_MS = 1000
const MAX_BACKOFF_MS = 30_000
/** A worker that ran this long without dying resets the backoff. */
const STABLE_AFTER_MS = 60_000
/**
 * Workers that ended before they ever listened, in a row, with none listening yet: the start
 * itself fails (an unreachable database, a bad migration). The primary then ends (exit 1) with
 * one line, so an orchestrator sees a failed start instead of a primary restarting forever.
 */
export const START_ATTEMPTS = 3
/** After the workers' own shutdown bound: how much longer before they are killed. */
const KILL_GRACE_MS = 5000

/**
 * The workers still running. Node removes a worker from `cluster.workers` only once it has both
 * exited and disconnected its IPC channel, in either order: when the exit comes first, the
 * 'exit' event still finds it listed. Counting it there left a stopping primary waiting for a
 * worker already gone (with METRICS_PORT's listener open, forever).
 */
export function liveWorkers(workers: Iterable<Pick<Worker, 'isDead'> | undefined>): Worker[] {
  const live: Worker[] = []
  for (const w of workers) if (w !== undefined && !w.isDead()) live.push(w as Worker)
  return live
}

export function runPrimary(config: AppConfig): void {
  logCrashes()
  // The primary serves no request, but ends only when told to: never because of an error.
  survivePastErrors()
  const log = logger()
  const wanted = config.webConcurrency
  let stopping = false
  let failures = 0
  let everListened = false
  let failedStarts = 0
  let metricsListener: Server | undefined
  const startedAt = new Map<Worker, number>()

  // Workers write to our stdout themselves, in whole lines of at most PIPE_BUF bytes (src/platform/logging).
  cluster.setupPrimary({ stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })

  const fork = (): Worker => {
    const worker = cluster.fork()
    startedAt.set(worker, Date.now())
    answerMetricsRequests(worker)
    return worker
  }

  const alive = () => liveWorkers(Object.values(cluster.workers ?? {}))

  cluster.once('listening', () => {
    everListened = true
    log.info({ workers: wanted }, 'cluster.first_worker_listening')
    for (let i = 1; i < wanted; i++) fork()
  })

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now())
    startedAt.delete(worker)
    if (stopping) {
      if (alive().length === 0) finish()
      return
    }
    if (!everListened && ++failedStarts >= START_ATTEMPTS) {
      log.fatal({ attempts: failedStarts, database: databaseLabel(config.database.uri, config.database.name), code, signal }, 'cluster.start_failed')
      return finish(1)
    }
    failures = lived >= STABLE_AFTER_MS ? 1 : failures + 1
    const delayMs = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failures - 1))
    log.error({ workerPid: worker.process.pid, code, signal, restartInMs: delayMs }, 'cluster.worker_died')
    // Not unref()ed: with every worker dead this timer is what keeps the primary alive.
    setTimeout(() => {
      if (!stopping) fork()
    }, delayMs)
  })

  const finish = (exitCode = 0) => {
    metricsListener?.close()
    log.info({}, 'server.stopped')
    flushLogs()
    process.exit(exitCode)
  }

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    log.info({ signal, workers: alive().length }, 'server.stopping')
    flushLogs()
    const workers = alive()
    if (workers.length === 0) return finish()
    for (const worker of workers) worker.process.kill(signal)
    setTimeout(
      () => {
        const left = alive()
        log.error({ workers: left.map((w) => w.process.pid) }, 'cluster.workers_killed')
        for (const worker of left) worker.process.kill('SIGKILL')
      },
      config.shutdownTimeoutSeconds * 1000 + KILL_GRACE_MS,
    ).unref()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))

  if (config.metrics.port) {
    metricsListener = metricsServer(clusterMetrics).listen(config.metrics.port, METRICS_HOST, () =>
      log.info({ host: METRICS_HOST, port: config.metrics.port }, 'metrics.listening'),
    )
  }

  log.info({ workers: wanted, port: config.port }, 'cluster.starting')
  fork()
}
