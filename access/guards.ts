import { verifyAccessToken } from '../src/auth/accessToken'
import { ApiError, forbidden } from '../src/errors'

/** The caller as the API sees it: an id and the permissions its access token carries. */
export type AuthUser = { id: string; permissions: string[] }

export type AuthMode = 'none' | 'optional' | 'required'

/** Whether a token's subject is still an active user (src/auth/activeSubject.ts); asked on writes. */
export type SubjectCheck = (userId: string) => Promise<boolean>

/** Every authenticated caller may submit content; the permission need not be granted. */
export const IMPLICIT_PERMISSIONS = ['content.submit']

/** The token of an `Authorization: Bearer …` value: undefined when absent, null when malformed. */
function bearerToken(header: string | null): string | null | undefined {
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim())
  return match ? match[1]! : null
}

/**
 * required-auth and optional-auth from the spec: a missing token is 401 `auth.missing_token`
 * only when required; a present but malformed, forged or expired token is always 401
 * `auth.invalid_token`. With `isLive` (state-changing requests), a token whose subject is no
 * longer an active user is `auth.invalid_token` too, though its signature and expiry hold.
 */
export async function authenticate(authorization: string | null, mode: AuthMode, isLive?: SubjectCheck): Promise<AuthUser | null> {
  if (mode === 'none') return null
  const token = bearerToken(authorization)
  if (token === undefined) {
    if (mode === 'required') throw new ApiError(401, 'auth.missing_token', 'An access token is required.')
    return null
  }
  const claims = token ? await verifyAccessToken(token) : null
  if (!claims || (isLive && !(await isLive(claims.sub)))) {
    throw new ApiError(401, 'auth.invalid_token', 'The access token is malformed, expired or not recognized.')
  }
  return { id: claims.sub, permissions: [...new Set([...claims.permissions, ...IMPLICIT_PERMISSIONS])] }
}

export function hasPermissions(user: AuthUser | null, required: readonly string[]): boolean {
  return !!user && required.every((p) => user.permissions.includes(p))
}

/** The permission check: ALL listed permissions must be present (AND). */
export function requirePermissions(user: AuthUser | null, required: readonly string[]): void {
  if (required.length === 0) return
  if (!user) throw new ApiError(401, 'auth.missing_token', 'An access token is required.')
  if (!hasPermissions(user, required)) throw forbidden()
}
