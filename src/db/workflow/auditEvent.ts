import { newHexId } from '../ids'
import type { ModerationEventInput } from '../moderationTypes'
import { type Fields, type Later, ref, type Step } from '../writePlan'

/** The audit trail's row for a workflow change, inserted by the change's own plan. */
export function auditEventStep(e: Omit<ModerationEventInput, 'reason'> & { reason: string | null | Later }): Step {
  const values: Fields = {
    id: ref(newHexId()),
    actor: ref(e.actorId),
    action: e.action,
    targetCollection: e.targetCollection,
    targetId: e.targetId,
    targetSlug: e.targetSlug,
    stateBefore: e.stateBefore,
    stateAfter: e.stateAfter,
    reason: e.reason,
    at: e.at,
    createdAt: e.at,
    updatedAt: e.at,
  }
  return { op: 'insert', target: 'moderation-events', values }
}
