import argon2 from 'argon2'

/** The spec's password rules: length only, no composition rules. */
export const PASSWORD_MIN_LENGTH = 12
/** argon2 hashes anything, but an unbounded input is a cheap way to burn CPU. */
export const PASSWORD_MAX_LENGTH = 1024

const OPTIONS = { type: argon2.argon2id, memoryCost: 65536, timeCost: 3, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS)
}

let dummy: Promise<string> | undefined
/** A hash of nothing anyone knows: unknown emails are checked against it so timing matches. */
function dummyHash(): Promise<string> {
  dummy ??= argon2.hash(`dummy-${Math.random()}-${Date.now()}`, OPTIONS)
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
