/**
 * An uploaded file that the service shows (a content item's thumbnail, the branding logo or
 * icon) is protected: it cannot be deleted, and its file cannot be replaced (the public
 * thumbnailUrl would point at a missing or a different image). Refused with 409 in the console
 * and Payload REST, naming where it is used; unused media stays free to change.
 */
import { APIError, type CollectionBeforeDeleteHook, type CollectionBeforeOperationHook, type PayloadRequest, type Where } from 'payload'

/** Where the media record is shown: `content:<slug>`, `branding.logo`, `branding.icon`. */
export async function mediaUses(req: PayloadRequest, mediaId: string): Promise<string[]> {
  const uses: string[] = []
  const items = await req.payload.find({
    collection: 'content',
    where: { thumbnail: { equals: mediaId } },
    depth: 0,
    limit: 5,
    overrideAccess: true,
    select: { slug: true },
    req,
  })
  uses.push(...items.docs.map((d) => `content:${String(d.slug)}`))
  const branding = (await req.payload.findGlobal({ slug: 'branding', depth: 0, overrideAccess: true, req })) as { logo?: unknown; icon?: unknown }
  const idOf = (v: unknown) => (v && typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : v == null ? null : String(v))
  if (idOf(branding.logo) === mediaId) uses.push('branding.logo')
  if (idOf(branding.icon) === mediaId) uses.push('branding.icon')
  return uses
}

const inUse = (uses: string[], what: string) =>
  new APIError(`This file is in use (${uses.join(', ')}): ${what}. Choose another file there first.`, 409, { uses }, true)

export const protectMediaInUseFromDelete: CollectionBeforeDeleteHook = async ({ id, req }) => {
  const uses = await mediaUses(req, String(id))
  if (uses.length > 0) throw inUse(uses, 'it cannot be deleted')
}

/**
 * A new file on an existing record (Payload's "replace file"): refused while the record is
 * shown. Before the operation: Payload deletes the old file before any change hook runs.
 */
export const protectMediaInUseFromReplace: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if ((operation !== 'update' && operation !== 'updateByID') || !req.file) return args
  const { id, where } = args as { id?: unknown; where?: Where }
  const ids =
    id !== undefined
      ? [String(id)]
      : (await req.payload.find({ collection: 'media', where: where ?? {}, depth: 0, pagination: false, overrideAccess: true, select: {}, req })).docs.map((d) => String(d.id))
  for (const mediaId of ids) {
    const uses = await mediaUses(req, mediaId)
    if (uses.length > 0) throw inUse(uses, 'its file cannot be replaced')
  }
  return args
}
