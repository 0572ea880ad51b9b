/**
 * MongoDB primitives for identity: the atomic refresh-token claim (a conditional
 * findOneAndUpdate) and rate-limit counters (rate-limiter-flexible's RateLimiterMongo on
 * Payload's client; its indexes are built and awaited at start-up, src/db/mongo/indexes).
 */
import type { Db, ObjectId } from 'mongodb'
import type { Payload } from 'payload'
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible'

import type { ClaimResult, GraceSuccessor, RateLimitHit } from '../authTypes'
import { RATE_LIMIT_COLLECTION } from './indexes'
import { nativeClient, nativeDb, payloadCollection } from './native'
import { withTransientRetry } from './retry'

type RefreshTokenDoc = { _id: ObjectId; tokenHash: string; revokedAt?: Date | null; revokedReason?: string | null; updatedAt: Date }

/** `revokedAt: null` matches both a null and a missing field. */
export const claimFilter = (tokenHash: string) => ({ tokenHash, revokedAt: null })
/** With a reuse grace, the sealed successor is written by the same conditional update. */
export const claimUpdate = (reason: string, now: Date, successor?: GraceSuccessor) => ({
  $set: {
    revokedAt: now,
    revokedReason: reason,
    updatedAt: now,
    ...(successor ? { graceToken: successor.sealed, graceUntil: successor.until } : {}),
  },
})

/** Marks the token revoked only if it still is not: exactly one of concurrent callers wins. */
export async function claimRefreshTokenMongo(
  payload: Payload,
  tokenHash: string,
  reason: string,
  now: Date,
  successor?: GraceSuccessor,
): Promise<ClaimResult> {
  const tokens = payloadCollection<RefreshTokenDoc>(payload, 'refresh-tokens')
  const doc = await withTransientRetry(() =>
    tokens.findOneAndUpdate(claimFilter(tokenHash), claimUpdate(reason, now, successor), { returnDocument: 'after', projection: { _id: 1 } }),
  )
  return { claimed: doc != null }
}

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
