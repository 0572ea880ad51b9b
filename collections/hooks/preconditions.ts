/**
 * The version check of a conditional write (src/services/recordVersions): compared with the
 * stored record read inside the write's transaction. Every update also moves its record's
 * `updatedAt` past the stored one (Payload stamps the update with the clock right after these
 * hooks): two writes in one millisecond would otherwise share a version, and a tag read between
 * them would let the second overwrite the first.
 */
import type { CollectionBeforeChangeHook } from 'payload'

import { assertVersion, IF_MATCH_CONTEXT, type IfMatch } from '../../src/services/recordVersions'

/** A stored instant further ahead than this is a clock that stepped back: no wait for it. */
const MAX_WAIT_MS = 20

async function pastInstant(updatedAt: unknown): Promise<void> {
  const stored = typeof updatedAt === 'string' ? Date.parse(updatedAt) : NaN
  if (!Number.isFinite(stored) || stored - Date.now() > MAX_WAIT_MS) return
  while (Date.now() <= stored) await new Promise((resolve) => setTimeout(resolve, 1))
}

export const preconditionGuard: CollectionBeforeChangeHook = async ({ data, originalDoc, operation, context }) => {
  if (operation !== 'update' || !originalDoc) return data
  assertVersion(context[IF_MATCH_CONTEXT] as IfMatch, originalDoc.updatedAt)
  await pastInstant(originalDoc.updatedAt)
  return data
}
