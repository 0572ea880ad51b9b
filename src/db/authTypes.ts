/** Shapes shared by the engine-specific identity primitives (src/db/sqlite, src/db/mongo). */
export type ClaimResult = { claimed: boolean }

export type RateLimitHit = {
  allowed: boolean
  /** Points used in the current window, this hit included. */
  consumed: number
  msBeforeReset: number
}
