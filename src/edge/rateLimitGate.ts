import { ApiError } from '../platform/errors'
import { enforceLimit, PER_USER_LIMITS, type LimitName } from '../services/rateLimit'
import type { ApiContext } from './route'

/**
 * A route `before` gate: `before: rateLimit('submit')`. Per-user limits need an
 * authenticated route (the wrapper authenticates before `before` runs).
 */
export function rateLimit(name: LimitName): (ctx: ApiContext) => Promise<void> {
  return async (ctx) => {
    const subject = PER_USER_LIMITS.has(name) ? ctx.user?.id : ctx.ip
    if (!subject) throw new ApiError(401, 'auth.missing_token', 'An access token is required.')
    await enforceLimit(ctx.req.payload, name, subject, ctx.log)
  }
}
