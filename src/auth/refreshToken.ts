import { createHmac, randomBytes } from 'node:crypto'

import { getConfig } from '../config'

/** An opaque refresh token: 32 random bytes, base64url. Only its keyed hash is stored. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url')
}

/** HMAC-SHA256 keyed with JWT_REFRESH_SECRET: a leaked table cannot be replayed without the secret. */
export function hashRefreshToken(token: string): string {
  return createHmac('sha256', getConfig().auth.refreshSecret).update(token).digest('hex')
}

/** A family groups the tokens rotated from one login; logout revokes the whole family. */
export function newFamilyId(): string {
  return randomBytes(12).toString('hex')
}
