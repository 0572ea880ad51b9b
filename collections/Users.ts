import { APIError, type CollectionAfterReadHook, type CollectionBeforeChangeHook, type CollectionConfig, type FieldAccess } from 'payload'

import { allowIf, canEnterConsole } from '../access/collectionAccess'
import { getConfig } from '../src/platform/config'
import { permissionsOf, permissionsOfUser } from '../access/userPermissions'
import { domainWriteHooks } from './hooks/domainWrites'
import { afterUserChange, clearPasswordFlag, hashPasswordBeforeOperation } from './hooks/users'
import { actOnUserProblem, grantorOfConsole, roleAssignmentProblem, roleIdsOf, throwIfRefusedInConsole } from '../src/services/grants'
import { normalizeUsername, USERNAME_RULE, usernameProblem } from '../src/auth/usernames'
import { LAST_HOLDER_MESSAGE, orphanedPermissions } from '../src/services/lastHolder'

/**
 * The grant rule in the console (src/services/grants.ts, as the API's users service asks it):
 * no change to a user who holds a permission the caller lacks, no role whose permissions the
 * caller lacks. Runs per document, so the bulk form (PATCH /api/users?where=) is covered too.
 */
const enforceGrantRule: CollectionBeforeChangeHook = async ({ data, originalDoc, operation, req }) => {
  const grantor = grantorOfConsole(req)
  if (!grantor) return data
  if (operation === 'update') {
    throwIfRefusedInConsole(await actOnUserProblem(req.payload, grantor, (originalDoc as { roles?: unknown } | undefined)?.roles, req))
  }
  if (data.roles !== undefined) {
    throwIfRefusedInConsole(await roleAssignmentProblem(req.payload, grantor, roleIdsOf(data.roles), req))
  }
  if (operation === 'update' && originalDoc) {
    const change = { roles: data.roles !== undefined ? roleIdsOf(data.roles) : undefined, isActive: data.isActive as boolean | undefined }
    const orphaned = await orphanedPermissions(req.payload, String((originalDoc as { id: unknown }).id), change, req)
    if (orphaned.length > 0) throw new APIError(LAST_HOLDER_MESSAGE, 409, { permissions: orphaned }, true)
  }
  return data
}

const managesUsers: FieldAccess = ({ req }) => permissionsOf(req).includes('user.manage')

/**
 * Payload's admin-panel sessions never leave through its REST. The field's read access
 * empties them; Payload then writes `sessions: []`, which this removes. Payload's own session
 * checks read the user with overrideAccess (or from the database) and still see them.
 */
const hideSessions: CollectionAfterReadHook = ({ doc, overrideAccess }) => {
  if (!overrideAccess && doc && typeof doc === 'object') delete (doc as { sessions?: unknown }).sessions
  return doc
}

/**
 * Users. The admin panel keeps Payload's session cookie, but every password goes through
 * the argon2id service: the login, first-register, forgot/reset-password and unlock routes
 * are replaced by endpoints/consoleSession.ts (attached in payload.config.ts; custom
 * endpoints are matched before Payload's built-in ones), and the
 * hooks turn any written `password` into `passwordHash`. Payload's pbkdf2 columns stay empty.
 */
export const Users: CollectionConfig = {
  slug: 'users',
  // maxLoginAttempts 0: lockouts are replaced by the database-backed rate limits. The session
  // cookie is Secure whenever the console is reached over HTTPS (an https APP_PUBLIC_URL, or BEHIND_TLS).
  auth: { depth: 1, useAPIKey: false, maxLoginAttempts: 0, cookies: { secure: getConfig().secureCookies, sameSite: 'Lax' } },
  admin: {
    useAsTitle: 'email',
    defaultColumns: ['email', 'username', 'roles', 'isActive'],
    group: 'Access',
    // In the nav for those who manage users; everyone else reaches their own record as the Account view.
    hidden: ({ user }) => !permissionsOfUser(user as Parameters<typeof permissionsOfUser>[0]).includes('user.manage'),
  },
  access: {
    admin: canEnterConsole,
    // Console users see people by name and email wherever an item names them (a submitter, a
    // lock's holder, an audit entry: issue 53.6); who holds which roles and whether an account is
    // active only with user.manage (the fields' own access below).
    read: ({ req }) => req.user != null && canEnterConsole({ req }),
    create: allowIf('user.manage'),
    update: allowIf('user.manage'),
    delete: () => false,
  },
  hooks: {
    beforeOperation: [hashPasswordBeforeOperation],
    beforeChange: [enforceGrantRule],
    // Who may write follows a demotion at once (src/auth/currentStanding.ts).
    afterChange: [afterUserChange, ...domainWriteHooks('access').afterChange],
    afterDelete: domainWriteHooks('access').afterDelete,
    afterOperation: [clearPasswordFlag],
    afterRead: [hideSessions],
  },
  fields: [
    {
      name: 'username',
      type: 'text',
      required: true,
      unique: true,
      index: true,
      // The API's rule (src/auth/usernames): normalised first, so a case variant meets the unique index.
      hooks: { beforeValidate: [({ value }) => (typeof value === 'string' ? normalizeUsername(value) : value)] },
      validate: (value: unknown) => (typeof value === 'string' ? (usernameProblem(value) ?? true) : 'The username is required.'),
      // The rule before the first refusal, in the console's words.
      admin: { description: `Lower-case ${USERNAME_RULE}; capitals are lowered when saved.` },
    },
    // Read with user.manage only: showing them means reading roles, which a moderator may not.
    {
      name: 'roles',
      type: 'relationship',
      relationTo: 'roles',
      hasMany: true,
      saveToJWT: false,
      access: { read: managesUsers },
      // Their order means nothing; a sortable chip is a button holding buttons (axe nested-interactive).
      admin: { isSortable: false },
    },
    { name: 'isActive', type: 'checkbox', defaultValue: true, index: true, access: { read: managesUsers } },
    // The only password store: argon2id. Never readable through Payload, never shown.
    { name: 'passwordHash', type: 'text', hidden: true, access: { read: () => false } },
    // When the password last changed, set with the hash (collections/hooks/users.ts) and by
    // nothing else: an access token issued before it may not write (src/auth/currentStanding.ts).
    { name: 'passwordChangedAt', type: 'date', hidden: true, access: { read: () => false } },
    // Payload's own admin-panel sessions (an auth field, merged with Payload's definition):
    // never shown through the REST, not even to their user. Payload's session checks read
    // them with overrideAccess or straight from the database, so the console keeps working.
    { name: 'sessions', type: 'array', access: { read: () => false, update: () => false }, admin: { disabled: true }, fields: [] },
  ],
  timestamps: true,
}
