import type { Payload } from 'payload'

import type { AppConfig } from '../config'

/** What each engine implements for the test suite's probes (src/db/testSupport.ts). */
export type EngineTestProbes = {
  dropDatabase(db: AppConfig['database']): Promise<void>
  rateLimitPoints(payload: Payload, db: AppConfig['database'], key: string): Promise<number | undefined>
}
