/**
 * An uploaded file that the service shows (a content item's thumbnail, the branding logo or
 * icon) is protected: it cannot be deleted, and its file cannot be replaced (the public
 * thumbnailUrl would point at a missing or a different image). The media collection's hooks
 * (collections/hooks/media.ts) refuse with 409, naming where it is used; unused media stays free.
 */
import type { PayloadRequest } from 'payload'

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
