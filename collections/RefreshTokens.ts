import type { CollectionConfig } from 'payload'

import { nobody } from '../access/collectionAccess'

/**
 * Server-side refresh-token records. Only the keyed hash of a token is stored. Nothing may
 * reach this collection from outside: no access, no REST endpoints, hidden in the admin.
 */
export const RefreshTokens: CollectionConfig = {
  slug: 'refresh-tokens',
  admin: { hidden: true },
  access: { read: nobody, create: nobody, update: nobody, delete: nobody },
  endpoints: false,
  fields: [
    { name: 'userId', type: 'text', required: true, index: true },
    // Tokens rotated from one login share a family; logout revokes the family.
    { name: 'familyId', type: 'text', required: true, index: true },
    { name: 'tokenHash', type: 'text', required: true, unique: true, index: true },
    { name: 'expiresAt', type: 'date', required: true },
    { name: 'revokedAt', type: 'date', index: true },
    // Only a token revoked by rotation signals theft when presented again.
    {
      name: 'revokedReason',
      type: 'select',
      options: ['rotated', 'logout', 'reuse', 'password_change', 'deactivated', 'password_reset'],
    },
    // AUTH_REFRESH_REUSE_GRACE_SECONDS > 0: on a rotated row, the successor's raw token sealed
    // with AES-256-GCM (key from JWT_REFRESH_SECRET) until graceUntil, then cleared.
    { name: 'graceToken', type: 'text' },
    { name: 'graceUntil', type: 'date' },
    { name: 'createdUserAgent', type: 'text' },
    { name: 'createdIp', type: 'text' },
  ],
  timestamps: true,
}
