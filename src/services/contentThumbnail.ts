/**
 * Content's `thumbnailUrl` is derived from its `thumbnail` (an uploaded media record), never
 * typed: whatever route writes the item (the console, Payload REST, the follow-up runner), the
 * URL is the media record's own. A moderator may pick another uploaded media item as the
 * thumbnail (the URL follows it); a thumbnailUrl sent that differs from the one the thumbnail
 * gives (a tracking pixel elsewhere) is refused, naming the field.
 */
import type { PayloadRequest } from 'payload'

export const idOf = (v: unknown): string | null => {
  if (v === null || v === undefined || v === '') return null
  if (typeof v === 'object' && 'id' in v) return String((v as { id: unknown }).id)
  return String(v)
}

/** The URL of an uploaded media record (null: none), read in `req`'s transaction. */
export async function mediaUrl(req: PayloadRequest, mediaId: string | null): Promise<string | null> {
  if (mediaId === null) return null
  const media = await req.payload.findByID({ collection: 'media', id: mediaId, depth: 0, overrideAccess: true, req, disableErrors: true })
  return typeof media?.url === 'string' ? media.url : null
}
