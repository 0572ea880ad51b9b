import { randomUUID } from 'node:crypto'

import { jwtVerify, SignJWT } from 'jose'

import { getConfig } from '../platform/config'

export type AccessClaims = { sub: string; permissions: string[]; jti: string; iat: number; exp: number }

let key: Uint8Array | undefined
export function accessKey(): Uint8Array {
  key ??= new TextEncoder().encode(getConfig().auth.accessSecret)
  return key
}

/** Signs an access token: HS256, claims exactly sub, permissions, iat, exp, jti. */
export async function signAccessToken(userId: string, permissions: string[]): Promise<string> {
  const iat = Math.floor(Date.now() / 1000)
  return new SignJWT({ permissions })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + getConfig().auth.accessTtlSeconds)
    .setJti(randomUUID())
    .sign(accessKey())
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
