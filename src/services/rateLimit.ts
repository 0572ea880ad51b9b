/**
 * Rate limits: fixed windows counted in the database (shared by every process, kept across
 * restarts). Keyed by client IP for unauthenticated endpoints, by user id for the others.
 */
import type { Payload } from 'payload'

import { type AppConfig, getConfig } from '../platform/config'
import { engine } from '../db/engine'
import { ApiError } from '../platform/errors'
import type { RequestLogger } from '../platform/logging'

export type LimitName = keyof AppConfig['rateLimits']

/** Limits keyed by user id; every other limit is keyed by client IP. */
export const PER_USER_LIMITS: ReadonlySet<LimitName> = new Set<LimitName>(['passwordChange', 'submit'])

export type LimitOutcome = { allowed: boolean; retryAfterSeconds: number }

/** Counts one request against `name` for `subject` (an IP or a user id). */
export async function consumeLimit(payload: Payload, name: LimitName, subject: string): Promise<LimitOutcome> {
  const rule = getConfig().rateLimits[name]
  const hit = await engine().hitRateLimit(payload, `${name}:${subject}`, rule.points, rule.durationSeconds)
  return { allowed: hit.allowed, retryAfterSeconds: Math.max(1, Math.ceil(hit.msBeforeReset / 1000)) }
}

export function rateLimitExceeded(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'ratelimit.exceeded', 'Too many requests; try again later.', { retryAfterSeconds }, {
    'Retry-After': String(retryAfterSeconds),
  })
}

/** Throws 429 `ratelimit.exceeded` (with Retry-After) when the subject is over the limit. */
export async function enforceLimit(
  payload: Payload,
  name: LimitName,
  subject: string,
  log: RequestLogger,
): Promise<void> {
  const outcome = await consumeLimit(payload, name, subject)
  if (outcome.allowed) return
  log.warn({ limit: name, key: subject, retryAfterSeconds: outcome.retryAfterSeconds }, 'ratelimit.exceeded')
  throw rateLimitExceeded(outcome.retryAfterSeconds)
}
