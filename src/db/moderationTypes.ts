/**
 * Moderation as the engines write it: the audit trail (one event per workflow change, in the
 * same transaction as the change; collections/ModerationEvents.ts stores it), guarded updates
 * recorded with their event, status moves and the follow-up work they queue.
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


/** A status move that happens only if the item is still in the expected state. */
export type StatusTransition = {
  id: string
  from: 'pending'
  to: 'approved' | 'rejected'
  at: Date
  approvedAt: Date | null
  rejectionReason: string | null
  /** Follow-up jobs queued in the same transaction as the move (none if the move fails). */
  followUps: FollowUpKind[]
  /** The audit event, written in the move's transaction (target: this content item). */
  event: Omit<ModerationEventInput, 'targetCollection' | 'targetId'>
  /** Test seam: runs inside the transaction after the move and its event; a throw rolls all back. */
  afterMove?: () => void
}

/** The follow-up work a moderation decision can queue; one job per (item, kind) at most. */
export type FollowUpKind = 'thumbnail' | 'notify.approved' | 'notify.rejected'
export const FOLLOW_UP_KINDS: readonly FollowUpKind[] = ['thumbnail', 'notify.approved', 'notify.rejected']

export type FollowUpStatus = 'queued' | 'done' | 'failed'

/** A job a runner has claimed: it alone runs it until `claimedUntil`. */
export type ClaimedFollowUp = {
  id: string
  contentId: string
  kind: FollowUpKind
  /** Including this claim. */
  attempts: number
}

/** A job as stored, for inspection. */
export type FollowUpRow = {
  id: string
  contentId: string
  kind: FollowUpKind
  status: FollowUpStatus
  attempts: number
  claimedBy: string | null
  nextRunAt: Date
  lastError: string | null
}

/** Claim parameters: who claims, when, and for how long the claim holds. */
export type ClaimRequest = { worker: string; now: Date; leaseMs: number }

/** The outbox's depth: queued (waiting or due), running (claimed, lease unexpired), failed (gave up). */
export type FollowUpDepth = { queued: number; running: number; failed: number }

/** A failed run: retried at `retryAt`, or given up for good when it is null. */
export type FollowUpFailure = { id: string; worker: string; error: string; retryAt: Date | null; at: Date }
