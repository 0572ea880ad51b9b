/**
 * Runs the server as configured: with WEB_CONCURRENCY above 1 this process becomes the
 * cluster primary (server/cluster) and each forked worker, re-running the same entry
 * point, serves; otherwise this process serves alone (server/serve).
 */
import cluster from 'node:cluster'

import type { AppConfig } from '../src/platform/config'
import { runPrimary } from './cluster'
import { serve, type App } from './serve'

export type { App, Handler } from './serve'

/** `load` is called only in a process that serves (never in the primary). */
export async function runServer(config: AppConfig, load: () => Promise<App>): Promise<void> {
  if (cluster.isPrimary && config.webConcurrency > 1) return runPrimary(config)
  await serve(config, load)
}
