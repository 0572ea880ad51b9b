/** Shapes shared by the engine-specific identity primitives (src/db/sqlite, src/db/mongo). */
export type ClaimResult = { claimed: boolean }

/**
 * With a reuse grace: the successor's raw token, sealed (src/auth/refreshToken.ts), written
 * by the claim itself onto the rotated row, so a concurrent loser of the claim finds it.
 */
export type GraceSuccessor = { sealed: string; until: Date }

export type RateLimitHit = {
  allowed: boolean
  /** Points used in the current window, this hit included. */
  consumed: number
  msBeforeReset: number
}
