/**
 * The generations the services' caches key on (src/db/generations: a memory read, moved by
 * the engine's change feed), read here and only here; and the collection hooks' note of a save.
 */
import type { Payload, PayloadRequest } from 'payload'

import { type Domain, engine, generation } from '../db/engine'
import { contentDomainOf } from '../db/versionDomains'

export type { Domain }
export { contentDomainOf }

/** One domain's current generation. */
export function domainVersion(payload: Payload, domain: Domain): string {
  return generation(payload, domain)
}

/**
 * Several domains' generations as one cache version: a value derived from all of them (a
 * content page carries taxonomy slugs) is stale when any one moves.
 */
export function domainsVersion(payload: Payload, domains: readonly Domain[]): string {
  return domains.map((domain) => domainVersion(payload, domain)).join('\u0000')
}

/** A Payload save in `req` changed `domain` (collections/hooks/domainWrites.ts): generations move once it commits. */
export function noteDomainWrite(req: PayloadRequest, domain: Domain): Promise<void> {
  return engine().noteDomainWrite(req, domain)
}
