/** Test-suite probes on MongoDB (test/support/engineProbes.ts): the database, a counter as stored. */
import { MongoClient } from 'mongodb'

import { nativeDb } from '../../../src/db/mongo/native'
import type { EngineTestProbes } from './types'

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
