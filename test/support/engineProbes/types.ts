import type { Payload } from 'payload'

import type { AppConfig } from '../../../src/platform/config'

/** What each engine implements for the test suite's probes (test/support/engineProbes.ts). */
export type EngineTestProbes = {
  dropDatabase(db: AppConfig['database']): Promise<void>
  rateLimitPoints(payload: Payload, db: AppConfig['database'], key: string): Promise<number | undefined>
}
