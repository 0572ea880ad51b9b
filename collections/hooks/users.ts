/**
 * The users collection's hooks: the one password store. Whoever writes a user (the API,
 * the admin panel, bootstrap) passes a plain `password`; it becomes the argon2id
 * `passwordHash`, and Payload's own pbkdf2 `hash`/`salt` are left empty.
 */
import { randomBytes } from 'node:crypto'

import type { CollectionAfterChangeHook, CollectionAfterOperationHook, CollectionBeforeOperationHook } from 'payload'
import { ValidationError } from 'payload'

import { hashPassword, passwordProblem, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../src/auth/passwords'
import { revokeAllForUser } from '../../src/services/refreshTokens'

const CONTEXT_KEY = 'argon2PasswordSet'

/**
 * Before create/update: a given `password` is checked and hashed with argon2id into
 * `passwordHash`; a `passwordHash` sent by anyone is dropped. On create Payload's local
 * strategy insists on some password for its pbkdf2 columns: it gets a random throwaway that
 * nobody ever sees, and afterChange empties those columns.
 */
export const hashPasswordBeforeOperation: CollectionBeforeOperationHook = async ({ args, operation }) => {
  if (operation !== 'create' && operation !== 'update') return args
  const data = args.data as Record<string, unknown> | undefined
  if (!data) return args
  delete data.passwordHash
  delete data.passwordChangedAt
  const password = data.password
  if (password !== undefined && password !== null && password !== '') {
    const problem = passwordProblem(password)
    if (problem) {
      throw new ValidationError({
        collection: 'users',
        errors: [
          {
            path: 'password',
            message:
              problem === 'max'
                ? `The password must be at most ${PASSWORD_MAX_LENGTH} characters.`
                : `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
          },
        ],
      })
    }
    data.passwordHash = await hashPassword(password as string)
    // Tokens issued before this second may no longer write (src/auth/currentStanding.ts).
    data.passwordChangedAt = new Date().toISOString()
    args.req.context[CONTEXT_KEY] = true
  }
  if (operation === 'create') data.password = randomBytes(32).toString('base64url')
  else delete data.password
  return args
}

/**
 * After a write: empty Payload's pbkdf2 columns (create), and end every session of a user
 * who was deactivated or given a new password (refresh tokens revoked, admin sessions cleared).
 */
export const afterUserChange: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  const { payload } = req
  // Set once per operation, read by every user it writes (a bulk update writes many); cleared
  // when the operation ends (clearPasswordFlag), never by the first user's hook.
  const passwordSet = req.context[CONTEXT_KEY] === true
  const deactivated = operation === 'update' && previousDoc?.isActive !== false && doc.isActive === false
  const data: Record<string, unknown> = {}
  if (operation === 'create') Object.assign(data, { hash: null, salt: null })
  if (deactivated || (operation === 'update' && passwordSet)) {
    await revokeAllForUser(payload, String(doc.id), deactivated ? 'deactivated' : 'password_change', req)
    data.sessions = []
  }
  if (Object.keys(data).length > 0) {
    await payload.db.updateOne({ collection: 'users', id: doc.id, data, req, returning: false })
  }
  return doc
}

/** After the whole operation (every user of a bulk update written): the next write in this request starts clean. */
export const clearPasswordFlag: CollectionAfterOperationHook = ({ operation, req, result }) => {
  // Reads of users made inside the write (its hooks look users up) are operations too: only a write ends it.
  if (operation === 'create' || operation === 'update' || operation === 'updateByID') delete req.context[CONTEXT_KEY]
  return result
}
