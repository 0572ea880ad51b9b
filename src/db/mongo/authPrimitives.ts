/**
 * MongoDB primitives for identity: the atomic refresh-token claim (findOneAndUpdate) and
 * rate-limit counters (rate-limiter-flexible's RateLimiterMongo on Payload's connection).
 */
import type { Payload } from 'payload'
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible'

import type { ClaimResult, RateLimitHit } from '../authTypes'

type MongooseLike = {
  collections: Record<string, { findOneAndUpdate(filter: object, update: object, options: object): { lean(): Promise<unknown> } }>
  connection: { getClient(): unknown; db?: { databaseName: string }; name?: string }
}

const adapter = (payload: Payload) => payload.db as unknown as MongooseLike

/** Marks the token revoked only if it still is not: exactly one of concurrent callers wins. */
export async function claimRefreshTokenMongo(
  payload: Payload,
  tokenHash: string,
  reason: string,
  now: Date,
): Promise<ClaimResult> {
  const model = adapter(payload).collections['refresh-tokens']!
  // `revokedAt: null` matches both a null and a missing field.
  const doc = await model
    .findOneAndUpdate(
      { tokenHash, revokedAt: null },
      { $set: { revokedAt: now, revokedReason: reason, updatedAt: now } },
      { new: true },
    )
    .lean()
  return { claimed: doc != null }
}

const limiters = new Map<string, RateLimiterMongo>()

function limiterFor(payload: Payload, points: number, durationSeconds: number): RateLimiterMongo {
  const id = `${points}/${durationSeconds}`
  let limiter = limiters.get(id)
  if (!limiter) {
    const connection = adapter(payload).connection
    limiter = new RateLimiterMongo({
      storeClient: connection.getClient(),
      dbName: connection.db?.databaseName ?? connection.name,
      tableName: 'raw_rate_limits',
      keyPrefix: 'rl',
      points,
      duration: durationSeconds,
    })
    limiters.set(id, limiter)
  }
  return limiter
}

export async function hitRateLimitMongo(
  payload: Payload,
  key: string,
  points: number,
  durationSeconds: number,
): Promise<RateLimitHit> {
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
