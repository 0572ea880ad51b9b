import type { ModerationEventInput } from './moderationEventTypes'

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
