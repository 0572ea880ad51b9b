/**
 * Payload's document locks (`payload-locked-documents`, added by Payload with "any signed-in
 * user may do anything" access). A lock names its owner: one may lock (or take over) a
 * document only for oneself, never in another user's name (moderators and admins would then
 * get 423 on documents nobody is editing); one removes one's own locks only, bulk deletes
 * included; a holder of every permission (checked as permissions) may remove anyone's. Reads
 * stay open to console users: the admin panel shows who holds a lock.
 */
import { Forbidden, type Access, type CollectionBeforeChangeHook, type PayloadRequest, type SanitizedConfig } from 'payload'

import { PERMISSIONS } from '../src/auth/permissions'
import { canEnterConsole } from './collectionAccess'
import { permissionsOf } from './userPermissions'

export const LOCKS = 'payload-locked-documents'

const holdsEveryPermission = (req: PayloadRequest) => {
  const held = permissionsOf(req)
  return PERMISSIONS.every((p) => held.includes(p))
}

/** The user a lock names: `{ relationTo, value }` (value an id or a populated user) or a bare id. */
function ownerOf(user: unknown): string | undefined {
  if (user === null || user === undefined) return undefined
  const value = typeof user === 'object' && 'value' in user ? (user as { value: unknown }).value : user
  const id = typeof value === 'object' && value !== null && 'id' in value ? (value as { id: unknown }).id : value
  return id === undefined || id === null ? undefined : String(id)
}

const signedIntoConsole: Access = ({ req }) => req.user != null && canEnterConsole({ req })

/** Own locks only (a query constraint, so bulk deletes touch nothing else); everything for a full holder. */
const ownLocks: Access = ({ req }) => {
  if (!req.user || !canEnterConsole({ req })) return false
  if (holdsEveryPermission(req)) return true
  return { 'user.value': { equals: req.user.id } }
}

/** A lock is written in the writer's own name, whatever the route. */
const inOwnName: CollectionBeforeChangeHook = ({ data, req }) => {
  if (!req.user) return data
  const owner = ownerOf((data as { user?: unknown }).user)
  if (owner !== undefined && owner !== String(req.user.id)) throw new Forbidden(req.t)
  return data
}

const nobody: Access = () => false

/**
 * Applies the project's rules to the collections Payload adds itself (it builds them after our
 * config): the locks as above; `payload-migrations`, open by default to any signed-in user
 * through REST, to nobody (migrations run through Payload's own code, which skips access).
 */
export function restrictPayloadCollections(config: SanitizedConfig): SanitizedConfig {
  const locks = config.collections.find((c) => c.slug === LOCKS)
  if (locks) {
    locks.access = { ...locks.access, read: signedIntoConsole, create: signedIntoConsole, update: signedIntoConsole, delete: ownLocks }
    locks.hooks = { ...locks.hooks, beforeChange: [...(locks.hooks?.beforeChange ?? []), inOwnName] }
  }
  const migrations = config.collections.find((c) => c.slug === 'payload-migrations')
  if (migrations) migrations.access = { ...migrations.access, read: nobody, create: nobody, update: nobody, delete: nobody }
  return config
}
