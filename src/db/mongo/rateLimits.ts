/**
 * Rate-limit counters on MongoDB: rate-limiter-flexible's RateLimiterMongo on Payload's
 * client (its indexes are built and awaited at start-up, ./indexes).
 */
import type { Db } from 'mongodb'
import type { Payload } from 'payload'
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible'

import type { RateLimitHit } from '../authTypes'
import { RATE_LIMIT_COLLECTION } from './indexes'
import { nativeClient, nativeDb } from './native'

const limiters = new WeakMap<Db, Map<string, RateLimiterMongo>>()

function limiterFor(payload: Payload, points: number, durationSeconds: number): RateLimiterMongo {
  const db = nativeDb(payload)
  let byShape = limiters.get(db)
  if (!byShape) limiters.set(db, (byShape = new Map()))
  const id = `${points}/${durationSeconds}`
  let limiter = byShape.get(id)
  if (!limiter) {
    limiter = new RateLimiterMongo({
      storeClient: nativeClient(payload),
      dbName: db.databaseName,
      tableName: RATE_LIMIT_COLLECTION,
      keyPrefix: 'rl',
      points,
      duration: durationSeconds,
      // Start-up builds and awaits these indexes (a background build would go unchecked).
      disableIndexesCreation: true,
    })
    byShape.set(id, limiter)
  }
  return limiter
}

export async function hitRateLimitMongo(payload: Payload, key: string, points: number, durationSeconds: number): Promise<RateLimitHit> {
  try {
    const res = await limiterFor(payload, points, durationSeconds).consume(key, 1)
    return { allowed: true, consumed: res.consumedPoints, msBeforeReset: res.msBeforeNext }
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      return { allowed: false, consumed: err.consumedPoints, msBeforeReset: err.msBeforeNext }
    }
    throw err
  }
}
