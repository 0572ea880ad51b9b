import type { CollectionConfig } from 'payload'

import { allowIf, canEnterConsole } from '../access/collectionAccess'
import { permissionsOf } from '../access/userPermissions'
import { adminFirstRegister, adminLogin, adminPasswordFlowRefused } from '../src/auth/adminSession'
import { afterUserChange, hashPasswordBeforeOperation } from '../src/auth/userHooks'
import { TEXT_LIMITS, textValidator } from '../src/text'

/**
 * Users. The admin panel keeps Payload's session cookie, but every password goes through
 * the argon2id service: the login, first-register, forgot/reset-password and unlock routes
 * are replaced below (custom endpoints are matched before Payload's built-in ones), and the
 * hooks turn any written `password` into `passwordHash`. Payload's pbkdf2 columns stay empty.
 */
export const Users: CollectionConfig = {
  slug: 'users',
  // maxLoginAttempts 0: lockouts are replaced by the database-backed rate limits.
  auth: { depth: 1, useAPIKey: false, maxLoginAttempts: 0 },
  admin: { useAsTitle: 'email', defaultColumns: ['email', 'username', 'roles', 'isActive'], group: 'Access' },
  access: {
    admin: canEnterConsole,
    // Console users may read their own record (the admin panel needs it); all users need user.manage.
    read: ({ req }) => {
      if (!req.user || !canEnterConsole({ req })) return false
      if (permissionsOf(req).includes('user.manage')) return true
      return { id: { equals: req.user.id } }
    },
    create: allowIf('user.manage'),
    update: allowIf('user.manage'),
    delete: () => false,
  },
  endpoints: [
    { path: '/login', method: 'post', handler: adminLogin },
    { path: '/first-register', method: 'post', handler: adminFirstRegister },
    { path: '/forgot-password', method: 'post', handler: adminPasswordFlowRefused },
    { path: '/reset-password', method: 'post', handler: adminPasswordFlowRefused },
    { path: '/unlock', method: 'post', handler: adminPasswordFlowRefused },
  ],
  hooks: {
    beforeOperation: [hashPasswordBeforeOperation],
    afterChange: [afterUserChange],
  },
  fields: [
    { name: 'username', type: 'text', required: true, unique: true, index: true, validate: textValidator(TEXT_LIMITS.username) },
    { name: 'roles', type: 'relationship', relationTo: 'roles', hasMany: true, saveToJWT: false },
    { name: 'isActive', type: 'checkbox', defaultValue: true, index: true },
    // The only password store: argon2id. Never readable through Payload, never shown.
    { name: 'passwordHash', type: 'text', hidden: true, access: { read: () => false } },
  ],
  timestamps: true,
}
