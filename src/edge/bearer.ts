/**
 * The spec's required-auth and optional-auth, at the edge: the `Authorization: Bearer …`
 * header read, its token verified (src/auth/accessToken), and the caller handed to the rest
 * as a plain AuthUser (access/guards). A missing token is 401 `auth.missing_token` only when
 * required; a present but malformed, forged or expired token is always 401 `auth.invalid_token`.
 * With `isLive` (state-changing requests), a token whose subject is no longer an active user
 * is `auth.invalid_token` too, though its signature and expiry hold.
 */
import { type AuthMode, type AuthUser, callerOf, type SubjectCheck } from '../../access/guards'
import { verifyAccessToken } from '../auth/accessToken'
import { ApiError } from '../platform/errors'

/** The token of an `Authorization: Bearer …` value: undefined when absent, null when malformed. */
function bearerToken(header: string | null): string | null | undefined {
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim())
  return match ? match[1]! : null
}

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
  return callerOf(claims)
}
