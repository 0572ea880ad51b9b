import argon2 from 'argon2'

import { getConfig } from '../platform/config'

/** The spec's password rules: length only, no composition rules. */
export const PASSWORD_MIN_LENGTH = 12
/** argon2 hashes anything, but an unbounded input is a cheap way to burn CPU. */
export const PASSWORD_MAX_LENGTH = 1024

/**
 * argon2id's parameters: `standard` everywhere (64 MiB, three passes); `test` (1 MiB, one pass)
 * only for a test suite under NODE_ENV=test (PASSWORD_HASH_COST), where a standard hash per user
 * created or signed in dominated the suite (docs/benchmarks.md, *Measurements behind the code*). A hash carries its parameters, so either verifies anywhere.
 */
export const PASSWORD_HASH_OPTIONS = {
  standard: { type: argon2.argon2id, memoryCost: 65536, timeCost: 3, parallelism: 1 },
  test: { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 },
} as const

const options = () => PASSWORD_HASH_OPTIONS[getConfig().auth.passwordHashCost]

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, options())
}

const dummies = new Map<string, Promise<string>>()
/** A hash of nothing anyone knows, at the current cost: unknown emails are checked against it so timing matches. */
function dummyHash(): Promise<string> {
  const cost = getConfig().auth.passwordHashCost
  let dummy = dummies.get(cost)
  if (!dummy) dummies.set(cost, (dummy = argon2.hash(`dummy-${Math.random()}-${Date.now()}`, PASSWORD_HASH_OPTIONS[cost])))
  return dummy
}

/**
 * Constant-time comparison through argon2.verify. Without a stored hash (unknown user) it
 * still verifies against a dummy so the answer takes about as long, and returns false.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  const hash = typeof storedHash === 'string' && storedHash.startsWith('$argon2') ? storedHash : undefined
  try {
    const ok = await argon2.verify(hash ?? (await dummyHash()), password)
    return ok && hash !== undefined
  } catch {
    return false
  }
}

export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'required'
  if (password.length < PASSWORD_MIN_LENGTH) return 'min'
  if (password.length > PASSWORD_MAX_LENGTH) return 'max'
  return null
}
