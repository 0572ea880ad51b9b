/**
 * Catalog invalidation from Payload's writes to taxonomy collections: the taxonomy change
 * counter moves in the write's own transaction (onDomainWrite: MongoDB; SQLite's triggers
 * already do), which every process reads; a local generation also drops this process's
 * caches at once.
 */
import type { CollectionAfterChangeHook } from 'payload'

import { onDomainWrite } from '../db/engine'

let generation = 0

export const localCatalogGeneration = (): number => generation

export const catalogChangedHook: CollectionAfterChangeHook = async ({ doc, req }) => {
  await onDomainWrite(req, 'taxonomy')
  generation += 1
  return doc
}

/** For writes that bypass Payload's hooks (raw engine transactions such as a tag rename). */
export function bumpCatalogGeneration(): void {
  generation += 1
}
