import type { Access, PayloadRequest } from 'payload'

import { CONSOLE_PERMISSIONS } from '../src/auth/permissions'
import { permissionsOf } from './userPermissions'

/** Access for Payload's own routes and the admin panel: ALL listed permissions (AND). */
export const allowIf =
  (...required: string[]): Access =>
  ({ req }) => {
    const held = permissionsOf(req)
    return req.user != null && required.every((p) => held.includes(p))
  }

/** Admission to the admin console: at least one console permission. */
export const canEnterConsole = ({ req }: { req: PayloadRequest }): boolean => {
  const held = permissionsOf(req)
  return CONSOLE_PERMISSIONS.some((p) => held.includes(p))
}

/** Read access for console users only: Payload's REST is for the admin panel, not the public. */
export const consoleRead: Access = ({ req }) => canEnterConsole({ req })

export const nobody: Access = () => false

/** Taxonomy collections: console users read, `catalog.manage` writes, nothing is ever deleted. */
export const taxonomyAccess = {
  read: consoleRead,
  create: allowIf('catalog.manage'),
  update: allowIf('catalog.manage'),
  delete: nobody,
}
