/**
 * Content's `thumbnailUrl` is derived from its `thumbnail` (an uploaded media record), never
 * typed: whatever route writes the item (the console, Payload REST, the follow-up runner), the
 * URL is the media record's own. A moderator may pick another uploaded media item as the
 * thumbnail (the URL follows it); a thumbnailUrl sent that differs from the one the thumbnail
 * gives (a tracking pixel elsewhere) is refused, naming the field.
 */
import type { CollectionBeforeChangeHook, PayloadRequest } from 'payload'

import { refusal } from './workflowGuard'

const idOf = (v: unknown): string | null => {
  if (v === null || v === undefined || v === '') return null
  if (typeof v === 'object' && 'id' in v) return String((v as { id: unknown }).id)
  return String(v)
}

async function mediaUrl(req: PayloadRequest, mediaId: string | null): Promise<string | null> {
  if (mediaId === null) return null
  const media = await req.payload.findByID({ collection: 'media', id: mediaId, depth: 0, overrideAccess: true, req, disableErrors: true })
  return typeof media?.url === 'string' ? media.url : null
}

export const deriveThumbnailUrl: CollectionBeforeChangeHook = async ({ data, originalDoc, req }) => {
  const original = (originalDoc ?? {}) as { thumbnail?: unknown; thumbnailUrl?: unknown }
  const thumbnail = 'thumbnail' in data ? idOf(data.thumbnail) : idOf(original.thumbnail)
  const derived = 'thumbnail' in data || !originalDoc ? await mediaUrl(req, thumbnail) : ((original.thumbnailUrl as string | null | undefined) ?? null)
  const sent = 'thumbnailUrl' in data ? (data.thumbnailUrl ?? null) : derived
  // A form sends the stored value back unchanged: only a new, different URL is someone typing one.
  if (sent !== derived && sent !== (original.thumbnailUrl ?? null)) {
    throw refusal('content', [
      { path: 'thumbnailUrl', message: 'thumbnailUrl follows the thumbnail: choose an uploaded media item as the thumbnail instead.' },
    ])
  }
  return { ...data, thumbnailUrl: derived }
}
