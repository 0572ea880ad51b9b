import type { PayloadRequest } from 'payload'

/** A user document as the admin panel's request carries it: roles populated (auth depth 1). */
type UserLike = { roles?: unknown; isActive?: boolean | null } | null | undefined

/** The effective permissions of a user document, from its populated roles; empty when inactive. */
export function permissionsOfUser(user: UserLike): string[] {
  if (!user || user.isActive === false || !Array.isArray(user.roles)) return []
  const out = new Set<string>()
  for (const role of user.roles) {
    if (role && typeof role === 'object' && Array.isArray((role as { permissions?: unknown }).permissions)) {
      for (const p of (role as { permissions: unknown[] }).permissions) if (typeof p === 'string') out.add(p)
    }
  }
  return [...out].sort()
}

export const permissionsOf = (req: PayloadRequest): string[] => permissionsOfUser(req.user as UserLike)
