/**
 * Engine-neutral probes for the test suite, so that tests never branch on the engine or reach
 * for an adapter's client: dropping a test file's database and reading a rate-limit counter
 * as stored. Not used by the service itself. Takes the configuration to act on, which may
 * differ from the running one (set-up drops the suite's own database).
 */
import type { Payload } from 'payload'

import type { AppConfig } from '../config'
import type { Engine } from './engineOps'
import { mongoTestProbes } from './mongo/testProbes'
import { sqliteTestProbes } from './sqlite/testProbes'
import type { EngineTestProbes } from './testProbeTypes'

const PROBES: Record<Engine, EngineTestProbes> = { sqlite: sqliteTestProbes, mongodb: mongoTestProbes }

/** Removes a database and everything in it: the MongoDB database, or the SQLite file and its WAL. */
export function dropDatabase(db: AppConfig['database']): Promise<void> {
  return PROBES[db.engine].dropDatabase(db)
}

/** The stored hit count of rate-limit counter `key`, or undefined when there is none. */
export function rateLimitPoints(payload: Payload, db: AppConfig['database'], key: string): Promise<number | undefined> {
  return PROBES[db.engine].rateLimitPoints(payload, db, key)
}
