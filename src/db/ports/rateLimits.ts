import type { Payload } from 'payload'

import type { RateLimitHit } from '../authTypes'

/** Fixed-window counters shared by every process (src/services/rateLimit.ts). */
export type RateLimitPort = {
  hitRateLimit(payload: Payload, key: string, points: number, durationSeconds: number): Promise<RateLimitHit>
}
