import type { Payload } from 'payload'

import { getConfig } from '../platform/config'
import { engine } from '../db/engine'
import { startFollowUps } from '../jobs/followUps'
import { logger } from '../platform/logging'
import { seedDemoIfEmpty } from '../seed/seed'
import { primeCatalog } from '../services/catalog'
import { bootstrap } from './bootstrap'
import { expectReady, markReady } from './readiness'

/** Payload's onInit: pending migrations, idempotent bootstrap, content index repair, the optional demo seed, catalog priming. */
export async function onStart(payload: Payload): Promise<void> {
  const config = getConfig()
  // Registered before bootstrap is marked, so /ready never reports ready without the catalog and the search.
  expectReady('catalog')
  expectReady('search')
  // The migrations, then every start-up write that would race another process starting at the
  // same time (two first admins, two demo seeds), holding the engine's migration lock.
  await engine().prepare(payload, async () => {
    await bootstrap(payload)
    await engine().contentStore(payload).prepare()
    if (config.seedDemo && (await seedDemoIfEmpty(payload))) logger().info({}, 'seed.demo_loaded')
  })
  markReady('bootstrap')
  // Claims follow-ups queued by approvals, also those left by a process that died.
  startFollowUps(payload)
  await primeCatalog(payload)
  markReady('catalog')
  // The first search read the corpus whole on a request, seconds of event loop at a million items (docs/benchmarks.md, *Measurements behind the code*).
  await engine().contentStore(payload).primeSearch()
  markReady('search')
  logger().info({ engine: config.database.engine, env: config.env }, 'service.started')
}
