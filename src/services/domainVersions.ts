/**
 * The generations the services' caches key on (src/db/generations: a memory read, moved by
 * the engine's change feed), read here and only here.
 */
import type { Payload } from 'payload'

import { type Domain, generation } from '../db/engine'

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
