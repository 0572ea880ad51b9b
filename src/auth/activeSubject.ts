import type { Payload } from 'payload'

const HEX_ID = /^[0-9a-f]{24}$/

/**
 * Whether an access token's subject is a user who exists and is active: one indexed lookup
 * by primary key, reading only `isActive`. Writes ask this so a deactivated or deleted
 * identity dies at once, not when its token expires; a subject that is not an id is no user.
 */
export async function isActiveSubject(payload: Payload, userId: string): Promise<boolean> {
  if (!HEX_ID.test(userId)) return false
  const user = await payload.db.findOne<{ id: string; isActive?: boolean | null }>({
    collection: 'users',
    where: { id: { equals: userId } },
    select: { isActive: true },
  })
  return !!user && user.isActive !== false
}
