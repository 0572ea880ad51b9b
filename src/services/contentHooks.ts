/** Payload's writes to content: the content change counter moves in the write's transaction, local caches drop at once. */
import type { CollectionAfterChangeHook } from 'payload'

import { invalidateCounts, onDomainWrite } from '../db/engine'

export const contentChangedHook: CollectionAfterChangeHook = async ({ doc, req }) => {
  await onDomainWrite(req, 'content')
  invalidateCounts()
  return doc
}
