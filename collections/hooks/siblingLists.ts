/**
 * The reorderable taxonomy collections (surfaces, groups under a surface, channels under a group):
 * a save that adds a child to a list, by creating it or moving it under another parent, tells the
 * engine, so that a reorder of that list running at the same time cannot miss it
 * (src/db/mongo/siblingGuards.ts; SQLite's writers are serialised already).
 */
import type { CollectionAfterChangeHook } from 'payload'

import { noteSiblingWrite } from '../../src/services/domainVersions'

const idOf = (v: unknown): string | null => (v == null ? null : typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : String(v))

export function siblingListHook(collection: string, parentField?: string): CollectionAfterChangeHook {
  return async ({ doc, previousDoc, operation, req }) => {
    const parent = parentField ? idOf((doc as Record<string, unknown>)[parentField]) : null
    const moved = operation === 'update' && parentField !== undefined && idOf((previousDoc as Record<string, unknown> | undefined)?.[parentField]) !== parent
    if (operation === 'create' || moved) await noteSiblingWrite(req, collection, parentField, parent)
    return doc
  }
}
