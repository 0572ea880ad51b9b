/**
 * Tags, content and surfaces claim their slug in the same transaction as their own write
 * (src/services/slugClaims.ts): after the change, before the commit, so a slug another entity
 * holds fails the whole write with 409 `slug.conflict`, on every route (API, console, Local API).
 */
import type { CollectionAfterChangeHook } from 'payload'

import { followSlug, type SlugEntity } from '../../src/services/slugClaims'
import { asConsoleError } from '../../src/services/workflowGuard'

export const claimSlug =
  (entity: SlugEntity): CollectionAfterChangeHook =>
  async ({ collection, doc, previousDoc, operation, req }) => {
    const previous = operation === 'update' ? (previousDoc as { slug?: string } | undefined)?.slug : undefined
    try {
      await followSlug(req, entity, String(doc.id), String(doc.slug), previous)
    } catch (err) {
      // The console's REST shows Payload's error shape; the services map the API's themselves.
      throw req.payloadAPI === 'REST' ? asConsoleError(collection.slug, err) : err
    }
    return doc
  }
