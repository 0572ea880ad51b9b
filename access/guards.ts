/**
 * Who a caller is and what it may do, as permission strings (never role names). The edge
 * (src/edge/bearer.ts) turns a request's token into an AuthUser; everything below sees only that.
 */
import { ApiError, forbidden } from '../src/platform/errors'

/** The caller as the API sees it: an id and its permissions (a read's from its token, a write's from its user record now). */
export type AuthUser = { id: string; permissions: string[] }

export type AuthMode = 'none' | 'optional' | 'required'

/** The caller a verified token names as it stands now (src/auth/currentStanding.ts), asked on writes; null: it may not write. */
export type CurrentCaller = (claims: { sub: string; iat: number }) => Promise<AuthUser | null>

/** Every authenticated caller may submit content; the permission need not be granted. */
export const IMPLICIT_PERMISSIONS = ['content.submit']

/** The caller a verified token names: its subject, with its permissions and the implicit ones. */
export function callerOf(claims: { sub: string; permissions: readonly string[] }): AuthUser {
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
