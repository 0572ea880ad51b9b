/**
 * No save overwrites a change its author never saw (issue 53.2). A console save carries the
 * version of the document it was read at (Payload's edit form sends the document's `updatedAt`
 * as it loaded it); a save whose version is older than the stored one is refused with who changed
 * it and when. Who: the console's last editor (`editedBy`, set on every save: the saving user, or
 * nobody for a write of the service's own), or for a moderation move, the audit trail's actor.
 */
import type { Payload } from 'payload'

import { lastDecisions } from './moderationDecisions'
import { userNamesById } from './users'

export type ChangedBy = { by: { id: string; name: string } | null; at: string }

const idOf = (v: unknown): string | undefined => (typeof v === 'string' && /^[0-9a-f]{24}$/.test(v) ? v : undefined)

/**
 * Whether a save read at `sentVersion` is stale against `stored` (its `updatedAt`, `editedBy`):
 * null when it is current (or carries no version: not a console save), else who changed it and when.
 */
export async function staleSave(payload: Payload, collection: string, stored: { id?: unknown; updatedAt?: unknown; editedBy?: unknown }, sentVersion: unknown): Promise<ChangedBy | null> {
  if (typeof sentVersion !== 'string' || typeof stored.updatedAt !== 'string') return null
  const sent = Date.parse(sentVersion)
  const now = Date.parse(stored.updatedAt)
  if (!Number.isFinite(sent) || !Number.isFinite(now) || sent >= now) return null
  const decision = collection === 'content' && stored.id !== undefined ? (await lastDecisions(payload, [String(stored.id)])).get(String(stored.id)) : undefined
  if (decision && Date.parse(decision.at) > sent) return { by: decision.by, at: decision.at }
  const editor = idOf(stored.editedBy)
  const name = editor ? (await userNamesById(payload, [editor])).get(editor) : undefined
  return { by: editor ? { id: editor, name: name?.username ?? name?.email ?? 'someone' } : null, at: stored.updatedAt }
}
