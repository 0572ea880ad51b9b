/**
 * The change counters the services' caches key on (src/db/versionDomains), read here and
 * only here: where the versions come from (today one read of the engine's counter per
 * domain and request) can change in this one place.
 */
import type { Payload } from 'payload'

import { type Domain, engine } from '../db/engine'

/** One domain's current version. */
export function domainVersion(payload: Payload, domain: Domain): Promise<string> {
  return engine().versionOf(payload, domain)
}

/**
 * Several domains' versions as one cache version: a value derived from all of them (a
 * content page carries taxonomy slugs) is stale when any one moves.
 */
export async function domainsVersion(payload: Payload, domains: readonly Domain[]): Promise<string> {
  const versions = await Promise.all(domains.map((domain) => domainVersion(payload, domain)))
  return versions.join('\u0000')
}
