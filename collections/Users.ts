import type { CollectionConfig } from 'payload'

import { allowIf, canEnterConsole } from '../access/collectionAccess'
import { permissionsOf } from '../access/userPermissions'

/**
 * Users. Payload's auth gives the admin panel its session; the API issues its own tokens
 * (src/auth). Who may enter the console follows the permission strings, never role names.
 */
export const Users: CollectionConfig = {
  slug: 'users',
  auth: { depth: 1, useAPIKey: false },
  admin: { useAsTitle: 'email', defaultColumns: ['email', 'username', 'roles', 'isActive'], group: 'Access' },
  access: {
    admin: canEnterConsole,
    // A user may read their own record (the admin panel needs it); everything else needs user.manage.
    read: ({ req }) => {
      if (!req.user) return false
      if (permissionsOf(req).includes('user.manage')) return true
      return { id: { equals: req.user.id } }
    },
    create: allowIf('user.manage'),
    update: allowIf('user.manage'),
    delete: () => false,
  },
  fields: [
    { name: 'username', type: 'text', required: true, unique: true, index: true },
    { name: 'roles', type: 'relationship', relationTo: 'roles', hasMany: true, saveToJWT: false },
    { name: 'isActive', type: 'checkbox', defaultValue: true, index: true },
  ],
  timestamps: true,
}
