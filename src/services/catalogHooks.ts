/**
 * In-process half of catalog invalidation: a taxonomy write in this process bumps a local
 * generation so the next GET /catalog rebuilds even if the database-derived version could
 * not tell (two writes in one millisecond). Other processes notice via that version.
 */
import type { CollectionAfterChangeHook } from 'payload'

let generation = 0

export const localCatalogGeneration = (): number => generation

export const catalogChangedHook: CollectionAfterChangeHook = ({ doc }) => {
  generation += 1
  return doc
}

/** For writes that bypass Payload's hooks (raw engine transactions such as a tag rename). */
export function bumpCatalogGeneration(): void {
  generation += 1
}
