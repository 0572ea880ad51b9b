import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

import { getConfig } from '../platform/config'

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

/** AES-256-GCM key for sealed successors: derived from JWT_REFRESH_SECRET, distinct from the hashing use. */
const sealKey = () => createHmac('sha256', getConfig().auth.refreshSecret).update('refresh-token-grace-seal').digest()

/**
 * The successor of a rotated token, sealed for the reuse grace: AES-256-GCM with the
 * predecessor's hash as associated data, so a sealed value is readable only on its own row.
 * Format: base64url(iv[12] | tag[16] | ciphertext).
 */
export function sealSuccessor(successor: string, predecessorHash: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', sealKey(), iv)
  cipher.setAAD(Buffer.from(predecessorHash))
  const body = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

/** The sealed successor, or null when it was not sealed for this row (or with this secret). */
export function openSuccessor(sealed: string, predecessorHash: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64url')
    if (raw.length <= 28) return null
    const decipher = createDecipheriv('aes-256-gcm', sealKey(), raw.subarray(0, 12))
    decipher.setAAD(Buffer.from(predecessorHash))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
