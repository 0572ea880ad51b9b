/** Test-suite probes on MongoDB (src/db/testSupport.ts): the database, a counter as stored. */
import { MongoClient } from 'mongodb'

import type { EngineTestProbes } from '../testProbeTypes'
import { nativeDb } from './native'

export const mongoTestProbes: EngineTestProbes = {
  async dropDatabase(db) {
    const client = new MongoClient(db.uri, { serverSelectionTimeoutMS: 10_000 })
    try {
      await client.db(db.name).dropDatabase()
    } finally {
      await client.close()
    }
  },
  async rateLimitPoints(payload, _db, key) {
    // rate-limiter-flexible's documents, key prefixed with `rl:` (src/db/mongo/authPrimitives).
    const doc = await nativeDb(payload).collection<{ key: string; points: number }>('raw_rate_limits').findOne({ key: `rl:${key}` })
    return doc ? Number(doc.points) : undefined
  },
}
