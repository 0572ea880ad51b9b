/**
 * What each follow-up job does. Both are idempotent per item, because a job can run again
 * after its runner died between doing the work and recording it:
 * - thumbnail: skips an item that already has one (an interrupted run may leave an unlinked
 *   upload behind; it never links an upload it did not just create);
 * - notification: one per (item, kind), a unique index in the database (collections/Notifications).
 */
import type { Payload } from 'payload'

import type { FollowUpKind } from '../db/engine'
import { renderThumbnail } from '../platform/media/thumbnail'
import { createUpload } from '../services/storedUploads'
import { payloadWrite } from '../db/payloadWrite'

export type FollowUpJob = { contentId: string; kind: FollowUpKind }
export type FollowUpHandler = (payload: Payload, job: FollowUpJob) => Promise<unknown>

const GREY = '#6b7280'

const idOf = (v: unknown): string | null => {
  if (v == null) return null
  if (typeof v === 'object' && 'id' in v) return String(v.id)
  return String(v)
}

/**
 * Whether the job still applies: the item is active and still in the state the job was queued
 * for. A soft delete cancels queued jobs in its own transaction; this catches one a runner had
 * already claimed (no thumbnail or notification for a deleted item).
 */
function stillWanted(content: { status?: unknown; isActive?: unknown }, kind: FollowUpKind): boolean {
  if (content.isActive === false) return false
  return content.status === (kind === 'notify.rejected' ? 'rejected' : 'approved')
}

async function contentOf(payload: Payload, id: string) {
  const doc = await payload.findByID({ collection: 'content', id, depth: 0, overrideAccess: true, disableErrors: true })
  if (!doc) throw new Error(`content ${id} does not exist`)
  return doc
}

/** The group's colour (grey without one): read alone, not by populating every relationship of the item. */
async function groupColor(payload: Payload, groupId: string | null): Promise<string> {
  if (!groupId) return GREY
  const group = await payload.findByID({ collection: 'groups', id: groupId, depth: 0, overrideAccess: true, disableErrors: true })
  return typeof group?.color === 'string' ? group.color : GREY
}

export const thumbnailFileName = (contentId: string) => `thumb-${contentId}.png`

/**
 * Renders the item's thumbnail in its group's colour, stores it as a new upload and links it
 * from the item. It never adopts a file it did not create: an upload someone named
 * `thumb-<id>.png` beforehand stays theirs (Payload stores ours under a free name).
 */
async function thumbnail(payload: Payload, { contentId, kind }: FollowUpJob): Promise<void> {
  const content = await contentOf(payload, contentId)
  if (content.thumbnail || !stillWanted(content, kind)) return
  const color = await groupColor(payload, idOf(content.group))
  const png = await renderThumbnail({ title: String(content.title), color })
  // A failed attempt (a WriteConflict retried) leaves no file behind (src/services/storedUploads).
  const media = await createUpload(payload, {
    data: { alt: String(content.title) },
    file: { data: png, mimetype: 'image/png', name: thumbnailFileName(String(content.id)), size: png.length },
  })
  const url: unknown = media.url
  await payloadWrite(() => payload.update({
    collection: 'content',
    id: content.id,
    data: { thumbnail: media.id, thumbnailUrl: typeof url === 'string' ? url : null },
    overrideAccess: true,
    context: { followUp: true },
    depth: 0,
  }))
}

const NOTICE = { 'notify.approved': 'content.approved', 'notify.rejected': 'content.rejected' } as const

async function notificationExists(payload: Payload, contentId: string, kind: string): Promise<boolean> {
  const found = await payload.find({
    collection: 'notifications',
    where: { and: [{ content: { equals: contentId } }, { kind: { equals: kind } }] },
    limit: 1,
    depth: 0,
    overrideAccess: true,
  })
  return found.totalDocs > 0
}

/** Tells the submitter about the decision; a second run for the same item and kind adds nothing. */
async function notify(payload: Payload, { contentId, kind }: FollowUpJob): Promise<void> {
  if (kind !== 'notify.approved' && kind !== 'notify.rejected') throw new Error(`not a notification: ${kind}`)
  const notice = NOTICE[kind]
  const content = await contentOf(payload, contentId)
  const user = idOf(content.submittedBy)
  if (!user || !stillWanted(content, kind) || (await notificationExists(payload, contentId, notice))) return
  const title = String(content.title)
  const reason: unknown = content.rejectionReason
  const message =
    notice === 'content.approved'
      ? `“${title}” was approved.`
      : `“${title}” was not accepted${typeof reason === 'string' && reason ? `: ${reason}` : '.'}`
  try {
    await payloadWrite(() => payload.create({ collection: 'notifications', data: { user, kind: notice, content: contentId, message }, overrideAccess: true, depth: 0 }))
  } catch (err) {
    // A concurrent run won the unique (content, kind) key: the notification exists, as wanted.
    if (await notificationExists(payload, contentId, notice)) return
    throw err
  }
}

export const followUpHandlers: Record<FollowUpKind, FollowUpHandler> = {
  thumbnail,
  'notify.approved': notify,
  'notify.rejected': notify,
}

/** Runs one follow-up for one item directly (no claim): for tools and tests. */
export function runFollowUp(payload: Payload, job: FollowUpJob): Promise<unknown> {
  return followUpHandlers[job.kind](payload, job)
}
