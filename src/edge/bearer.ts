/**
 * The spec's required-auth and optional-auth, at the edge: the `Authorization: Bearer …`
 * header read, its token verified (src/auth/accessToken), and the caller handed to the rest
 * as a plain AuthUser (access/guards). A missing token is 401 `auth.missing_token` only when
 * required; a present but malformed, forged or expired token is always 401 `auth.invalid_token`.
 * A read is the token's caller (its claims, stateless). A write (`current`) is the caller as its
 * user record stands now (decisions.md): its current permissions; a token whose user is gone,
 * inactive or changed its password after the token was issued is `auth.invalid_token` too,
 * though its signature and expiry hold.
 */
import { type AuthMode, type AuthUser, callerOf, type CurrentCaller } from '../../access/guards'
import { verifyAccessToken } from '../auth/accessToken'
import { ApiError } from '../platform/errors'

/** The token of an `Authorization: Bearer …` value: undefined when absent, null when malformed. */
function bearerToken(header: string | null): string | null | undefined {
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim())
  return match ? match[1]! : null
}

export async function authenticate(authorization: string | null, mode: AuthMode, current?: CurrentCaller): Promise<AuthUser | null> {
  if (mode === 'none') return null
  const token = bearerToken(authorization)
  if (token === undefined) {
    if (mode === 'required') throw new ApiError(401, 'auth.missing_token', 'An access token is required.')
    return null
  }
  const claims = token ? await verifyAccessToken(token) : null
  const caller = !claims ? null : current ? await current(claims) : callerOf(claims)
  if (!caller) throw new ApiError(401, 'auth.invalid_token', 'The access token is malformed, expired or not recognized.')
  return caller
}
