import { jwtVerify } from 'jose'

import { getConfig } from '../config'

export type AccessClaims = { sub: string; permissions: string[]; jti: string; iat: number; exp: number }

let key: Uint8Array | undefined
export function accessKey(): Uint8Array {
  key ??= new TextEncoder().encode(getConfig().auth.accessSecret)
  return key
}

/** Verifies an access token: HS256 only, signature, expiry, and the claim shapes. Null when invalid. */
export async function verifyAccessToken(token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, accessKey(), { algorithms: ['HS256'] })
    const { sub, permissions, jti, iat, exp } = payload
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return null
    if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === 'string')) return null
    return { sub, permissions: permissions as string[], jti, iat, exp }
  } catch {
    return null
  }
}

/** Test hook: the secret changes between test configurations. */
export function resetAccessKey(): void {
  key = undefined
}
