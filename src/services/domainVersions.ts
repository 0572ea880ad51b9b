/**
 * The generations the services' caches key on (src/db/freshness/generations: a memory read, moved by
 * the engine's change feed), read here and only here; and the collection hooks' note of a save.
 */
import type { Payload, PayloadRequest } from 'payload'

import { type Domain, engine, generation, rowFreshness, type RowFreshness, type RowStamp } from '../db/engine'
import { contentWriteDomain } from '../db/freshness'

export type { Domain, RowFreshness, RowStamp }
export { contentWriteDomain }

/** One domain's current generation. */
export function domainVersion(payload: Payload, domain: Domain): string {
  return generation(payload, domain)
}

/** Content rows' marks: a cached value that shows rows is read again once one of them changes. */
export function contentRows(payload: Payload): RowFreshness {
  return rowFreshness(payload)
}

/**
 * Several domains' generations as one cache version: a value derived from all of them (a
 * content page carries taxonomy slugs) is stale when any one moves.
 */
export function domainsVersion(payload: Payload, domains: readonly Domain[]): string {
  return domains.map((domain) => domainVersion(payload, domain)).join('\u0000')
}

/**
 * A Payload save in `req` changed `domain` (collections/hooks/domainWrites.ts): generations move
 * once it commits; `rows`, the content ids it wrote.
 */
export function noteDomainWrite(req: PayloadRequest, domain: Domain, rows?: readonly string[]): Promise<void> {
  return engine().noteDomainWrite(req, domain, rows)
}

/** A save in `req` adds a child to a sibling list a reorder checks (the engine's guard, written in the save's transaction). */
export function noteSiblingWrite(req: PayloadRequest, collection: string, parentField?: string, parentId?: string | null): Promise<void> {
  return engine().noteSiblingWrite(req, collection, parentField, parentId)
}
