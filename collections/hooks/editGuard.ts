/**
 * The edit guard of the documents the console edits (collections/editGuard.ts): a console save
 * carries the version it was read at, and a stale one is refused with 409 naming who changed the
 * document and when (src/services/editVersions.ts); every save records its console editor
 * (`editedBy`: the saving user, or nobody for the service's own writes).
 */
import { APIError, type CollectionBeforeChangeHook, type GlobalBeforeChangeHook, type PayloadRequest } from 'payload'

import { type ChangedBy, staleSave } from '../../src/services/editVersions'
import { isVersionRestore } from '../../src/services/workflowGuard'

const when = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`

function refuse(what: string, changed: ChangedBy): never {
  throw new APIError(
    `${changed.by?.name ?? 'Someone'} changed this ${what} at ${when(changed.at)}, after you opened it. Reload it to see their change, then make yours again (copy what you typed first).`,
    409,
    { code: 'document.changed', changedBy: changed.by, changedAt: changed.at },
    true,
  )
}

const editorOf = (req: PayloadRequest) => (req.user && req.payloadAPI !== 'local' ? String(req.user.id) : null)

export function collectionEditGuard(what: string): CollectionBeforeChangeHook {
  return async ({ data, originalDoc, operation, req, collection, context }) => {
    // A restore is made from an older version on purpose: there is no version it was read at.
    if (operation === 'update' && originalDoc && !isVersionRestore(context)) {
      const changed = await staleSave(req.payload, collection.slug, originalDoc, (data as { updatedAt?: unknown }).updatedAt)
      if (changed) refuse(what, changed)
    }
    return { ...data, editedBy: editorOf(req) }
  }
}

export function globalEditGuard(what: string): GlobalBeforeChangeHook {
  return async ({ data, originalDoc, req, global, context }) => {
    const changed = originalDoc && !isVersionRestore(context) ? await staleSave(req.payload, global.slug, originalDoc, (data as { updatedAt?: unknown }).updatedAt) : null
    if (changed) refuse(what, changed)
    return { ...data, editedBy: editorOf(req) }
  }
}
