/**
 * The moderation audit trail as the engines write it: one event per workflow change, in
 * the same transaction as the change (collections/ModerationEvents.ts stores it).
 */
import type { Domain } from './freshness'

export const MODERATION_ACTIONS = ['approve', 'reject', 'delete', 'restore', 'tag.rename', 'taxonomy.rename'] as const
export type ModerationAction = (typeof MODERATION_ACTIONS)[number]

export type ModerationEventInput = {
  actorId: string | null
  action: ModerationAction
  /** The changed document: its collection, id and slug (key) at the time of the change. */
  targetCollection: string
  targetId: string
  targetSlug: string
  /** The state before and after: a status (approve, reject), active/deleted, or the old and new slug. */
  stateBefore: string | null
  stateAfter: string | null
  reason: string | null
  at: Date
}

/** One guarded single-document update recorded with its event (soft delete, restore, taxonomy rename). */
export type RecordedUpdate = {
  collection: 'content' | 'surfaces' | 'groups' | 'channels' | 'platforms' | 'facets'
  id: string
  /** The update happens only while these fields still hold these values. */
  expect: Record<string, string | boolean>
  set: Record<string, string | boolean>
  /** The change counter the write moves (SQLite triggers move it themselves). */
  domain: Domain
  event: Omit<ModerationEventInput, 'targetCollection' | 'targetId'>
  /** Content soft delete: the item's queued follow-ups are cancelled in the same transaction. */
  cancelFollowUps?: boolean
  /** A surface rename: its claim among the global slugs moves to the new slug in the same transaction. */
  slugClaim?: { entity: 'surface'; slug: string }
  /** Test seam: runs inside the transaction after both writes; a throw rolls both back. */
  afterWrite?: () => void
}

/** updated: both written; unchanged: the guard no longer held (nothing written); taken: a unique key refused the new value. */
export type RecordedUpdateResult = 'updated' | 'unchanged' | 'taken'
