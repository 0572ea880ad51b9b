/**
 * Payload hooks that move a domain's change counter (src/db/versionDomains) in the write's
 * own transaction, on every collection and global whose data a cache shows. On SQLite the
 * database's triggers already did (the hook is a no-op); on MongoDB this is the `$inc`.
 * Caches read the counter, so nothing anywhere invalidates anything by hand.
 */
import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, GlobalAfterChangeHook } from 'payload'

import { engine, type Domain } from '../db/engine'

type CollectionHooks = { afterChange: CollectionAfterChangeHook[]; afterDelete: CollectionAfterDeleteHook[] }

/** Every create, update and delete of the collection moves `domain`'s counter. */
export function domainWriteHooks(domain: Domain): CollectionHooks {
  return {
    afterChange: [
      async ({ doc, req }) => {
        await engine().onDomainWrite(req, domain)
        return doc
      },
    ],
    afterDelete: [
      async ({ doc, req }) => {
        await engine().onDomainWrite(req, domain)
        return doc
      },
    ],
  }
}

/**
 * A collection other records refer to (uploads shown in the branding record): updates and
 * deletes move `domain`'s counter; a new row is shown only once a write to `domain` refers to it.
 */
export function referencedWriteHooks(domain: Domain): CollectionHooks {
  return {
    afterChange: [
      async ({ doc, req, operation }) => {
        if (operation === 'update') await engine().onDomainWrite(req, domain)
        return doc
      },
    ],
    afterDelete: domainWriteHooks(domain).afterDelete,
  }
}

/** Every update of the global moves `domain`'s counter. */
export function globalWriteHook(domain: Domain): GlobalAfterChangeHook {
  return async ({ doc, req }) => {
    await engine().onDomainWrite(req, domain)
    return doc
  }
}
