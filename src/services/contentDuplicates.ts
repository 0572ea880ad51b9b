/**
 * Duplicate URLs, one rule for both doors (POST /api/v1/content/submit and the console's
 * REST): every item stores the normalised form of its URL in `urlKey` (src/platform/urlNormalize.ts);
 * a URL whose key is already stored is 409 `content.duplicate`. The unique index on
 * (urlKey, urlKeyOrdinal) settles races (every new item has ordinal 0; src/db backfills
 * older rows). The first item's slug and status are told only to a caller who may see it.
 */
import type { Payload } from 'payload'

import { hasPermissions, type AuthUser } from '../../access/guards'
import { engine, type ContentRecord } from '../db/engine'
import { ApiError } from '../platform/errors'
import { urlKeyOf } from '../platform/urlNormalize'

/**
 * May the caller learn that this item exists? Approved and active: everyone. Pending or
 * rejected: content.moderate holders and the item's own submitter. Inactive: only
 * content.delete holders (who also need one of the above for a pending or rejected item).
 */
export function maySeeItem(r: ContentRecord, user: AuthUser | null): boolean {
  const statusOk = r.status === 'approved' || hasPermissions(user, ['content.moderate']) || (!!user && r.submittedBy === user.id)
  return statusOk && (r.isActive || hasPermissions(user, ['content.delete']))
}

export function duplicateError(existing: ContentRecord[], user: AuthUser | null): ApiError {
  const seen = existing.find((r) => maySeeItem(r, user))
  return new ApiError(
    409,
    'content.duplicate',
    'This URL has already been submitted.',
    seen ? { slug: seen.slug, status: seen.status } : undefined,
  )
}

/** The key of `url`, or 409 content.duplicate when an item (other than `exceptId`) holds it. */
export async function assertUrlFree(payload: Payload, url: string, user: AuthUser | null, exceptId?: string): Promise<string> {
  const key = urlKeyOf(url)
  const existing = (await engine().contentStore(payload).contentByUrlKey(key)).filter((r) => r.id !== exceptId)
  if (existing.length > 0) throw duplicateError(existing, user)
  return key
}

/** After a failed insert: the duplicate error if the key was taken meanwhile, else null. */
export async function duplicateAfterRace(payload: Payload, key: string, user: AuthUser | null): Promise<ApiError | null> {
  const existing = await engine().contentStore(payload).contentByUrlKey(key)
  return existing.length > 0 ? duplicateError(existing, user) : null
}
