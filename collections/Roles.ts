import type { CollectionConfig } from 'payload'

import { allowIf, consoleRead } from '../access/collectionAccess'
import { PERMISSIONS } from '../src/auth/permissions'

/** Roles are data: named sets of permission strings, editable at runtime. */
export const Roles: CollectionConfig = {
  slug: 'roles',
  admin: { useAsTitle: 'name', defaultColumns: ['name', 'permissions', 'updatedAt'], group: 'Access' },
  access: {
    read: consoleRead,
    create: allowIf('role.manage'),
    update: allowIf('role.manage'),
    delete: allowIf('role.manage'),
  },
  fields: [
    { name: 'name', type: 'text', required: true, unique: true, index: true },
    { name: 'description', type: 'text' },
    {
      name: 'permissions',
      type: 'select',
      hasMany: true,
      options: PERMISSIONS.map((p) => ({ label: p, value: p })),
    },
  ],
  timestamps: true,
}
