/**
 * Payload hooks on every collection and global whose data a cache shows: they tell the engine
 * which domain (src/db/freshness/versionDomains) a save changed, so this process's generation moves as
 * soon as the save commits (a client reads its own write at once). SQLite needs nothing (its
 * triggers move counters the write gate's release reads); MongoDB waits for the commit.
 * Nothing is written inside the save's transaction, and nothing invalidates anything by hand.
 */
import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, GlobalAfterChangeHook } from 'payload'

import { contentWriteDomain, type Domain, noteDomainWrite } from '../../src/services/domainVersions'

type CollectionHooks = { afterChange: CollectionAfterChangeHook[]; afterDelete: CollectionAfterDeleteHook[] }

/** Every create, update and delete of the collection moves `domain`'s generation. */
export function domainWriteHooks(domain: Domain): CollectionHooks {
  return {
    afterChange: [
      async ({ doc, req }) => {
        await noteDomainWrite(req, domain)
        return doc
      },
    ],
    afterDelete: [
      async ({ doc, req }) => {
        await noteDomainWrite(req, domain)
        return doc
      },
    ],
  }
}

/**
 * Content: a save moves the public generation only when the row is public before or after it
 * and the save changes what lists hold or how they order it (src/db/freshness/versionDomains); a pending
 * submission moves only the moderators' one, a thumbnail linked to a public item only its row.
 */
export function contentWriteHooks(): CollectionHooks {
  return {
    afterChange: [
      async ({ doc, previousDoc, operation, req }) => {
        await noteDomainWrite(req, contentWriteDomain(operation === 'update' ? previousDoc : null, doc), [String(doc.id)])
        return doc
      },
    ],
    afterDelete: [
      async ({ doc, req }) => {
        await noteDomainWrite(req, contentWriteDomain(doc, null), [String(doc.id)])
        return doc
      },
    ],
  }
}

/**
 * A collection other records refer to (uploads shown in the branding record): updates and
 * deletes move `domain`'s generation; a new row is shown only once a write to `domain` refers to it.
 */
export function referencedWriteHooks(domain: Domain): CollectionHooks {
  return {
    afterChange: [
      async ({ doc, req, operation }) => {
        if (operation === 'update') await noteDomainWrite(req, domain)
        return doc
      },
    ],
    afterDelete: domainWriteHooks(domain).afterDelete,
  }
}

/** Every update of the global moves `domain`'s generation. */
export function globalWriteHook(domain: Domain): GlobalAfterChangeHook {
  return async ({ doc, req }) => {
    await noteDomainWrite(req, domain)
    return doc
  }
}
