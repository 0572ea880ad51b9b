import type { Payload } from 'payload'

import { SEEDED_ROLES } from '../auth/permissions'
import { getConfig } from '../platform/config'
import { logger } from '../platform/logging'
import { STARTING_FACETS } from './startingFacets'
import { payloadWrite } from '../db/payloadWrite'

/** Seeded roles, with the admin role always holding every permission. Idempotent. */
async function ensureRoles(payload: Payload): Promise<Map<string, string>> {
  const ids = new Map<string, string>()
  for (const role of SEEDED_ROLES) {
    const found = await payload.find({ collection: 'roles', where: { name: { equals: role.name } }, limit: 1, overrideAccess: true })
    const existing = found.docs[0]
    if (!existing) {
      const created = await payloadWrite(() => payload.create({ collection: 'roles', data: { ...role, permissions: [...role.permissions] }, overrideAccess: true }))
      ids.set(role.name, String(created.id))
      continue
    }
    ids.set(role.name, String(existing.id))
    // The admin role must hold every permission, including ones added in later versions.
    if (role.name === 'admin') {
      const missing = role.permissions.filter((p) => !(existing.permissions ?? []).includes(p))
      if (missing.length > 0) {
        await payloadWrite(() => payload.update({
          collection: 'roles',
          id: existing.id,
          data: { permissions: [...new Set([...(existing.permissions ?? []), ...role.permissions])] },
          overrideAccess: true,
        }))
      }
    }
  }
  return ids
}

async function ensureFacets(payload: Payload): Promise<void> {
  for (const [order, facet] of STARTING_FACETS.entries()) {
    const found = await payload.count({ collection: 'facets', where: { key: { equals: facet.key } }, overrideAccess: true })
    if (found.totalDocs === 0) {
      await payloadWrite(() => payload.create({ collection: 'facets', data: { ...facet, displayOrder: order }, overrideAccess: true }))
    }
  }
}

async function ensureAdmin(payload: Payload, adminRoleId: string): Promise<void> {
  const admin = getConfig().bootstrapAdmin
  if (!admin) return
  const holders = await payload.count({ collection: 'users', where: { roles: { in: [adminRoleId] } }, overrideAccess: true })
  if (holders.totalDocs > 0) return
  const byEmail = await payload.find({
    collection: 'users',
    where: { email: { equals: admin.email } },
    limit: 1,
    overrideAccess: true,
    showHiddenFields: true,
  })
  const existing = byEmail.docs[0]
  // `password` is turned into the argon2id passwordHash by the users hooks (collections/hooks/users.ts);
  // Payload's pbkdf2 columns stay empty. An existing account without one gets the configured password.
  if (existing) {
    await payloadWrite(() => payload.update({
      collection: 'users',
      id: existing.id,
      data: { roles: [adminRoleId], isActive: true, ...(existing.passwordHash ? {} : { password: admin.password }) },
      overrideAccess: true,
    }))
  } else {
    await payloadWrite(() => payload.create({
      collection: 'users',
      data: { email: admin.email, username: 'admin', password: admin.password, roles: [adminRoleId], isActive: true },
      overrideAccess: true,
    }))
  }
  logger().info({ email: admin.email }, 'bootstrap.admin_created')
}

/** Runs on every start: roles, facets and the bootstrap admin, created only when missing. */
export async function bootstrap(payload: Payload): Promise<void> {
  const roles = await ensureRoles(payload)
  await ensureFacets(payload)
  await ensureAdmin(payload, roles.get('admin')!)
}
