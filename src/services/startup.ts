import type { Payload } from 'payload'

import { getConfig } from '../config'
import { prepareDatabase } from '../db/engine'
import { logger } from '../logging'
import { bootstrap } from './bootstrap'
import { markReady } from './readiness'

/** Payload's onInit: idempotent bootstrap, then the optional demo seed. */
export async function onStart(payload: Payload): Promise<void> {
  const config = getConfig()
  await prepareDatabase(payload, config.database.engine)
  await bootstrap(payload)
  markReady('bootstrap')
  logger().info({ engine: config.database.engine, env: config.env }, 'service.started')
}
