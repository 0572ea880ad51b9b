/**
 * Engine-neutral probes for the test suite, so that tests never branch on the engine or reach
 * for an adapter's client: dropping a test file's database and reading a rate-limit counter
 * as stored. Test code only (it lives under test/, beside the engine-specific halves in
 * ./engineProbes/); the service never loads it. Takes the configuration to act on, which may
 * differ from the running one (set-up drops the suite's own database).
 */
import type { Payload } from 'payload'

import type { AppConfig } from '../../src/platform/config'
import type { Engine } from '../../src/db/ports'
import { mongoTestProbes } from './engineProbes/mongo'
import { sqliteTestProbes } from './engineProbes/sqlite'
import type { EngineTestProbes } from './engineProbes/types'

const PROBES: Record<Engine, EngineTestProbes> = { sqlite: sqliteTestProbes, mongodb: mongoTestProbes }

/** Removes a database and everything in it: the MongoDB database, or the SQLite file and its WAL. */
export function dropDatabase(db: AppConfig['database']): Promise<void> {
  return PROBES[db.engine].dropDatabase(db)
}

/** The stored hit count of rate-limit counter `key`, or undefined when there is none. */
export function rateLimitPoints(payload: Payload, db: AppConfig['database'], key: string): Promise<number | undefined> {
  return PROBES[db.engine].rateLimitPoints(payload, db, key)
}
