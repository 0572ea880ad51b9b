/**
 * A moderation decision (pending → approved or rejected): the move guarded by the status the
 * request read, on an active item (a deleted one never moves), its follow-up jobs and its audit
 * event, all or nothing.
 */
import type { Payload } from 'payload'

import { engine } from '../engine'
import type { StatusTransition } from '../moderationTypes'
import { DONE, ref, type Step, type WritePlan } from '../writePlan'
import { contentDomainOf } from '../freshness'
import { auditEventStep } from './auditEvent'
import { enqueueFollowUpSteps } from './followUpSteps'

export function statusMovePlan(t: StatusTransition): WritePlan {
  const steps: Step[] = [
    {
      op: 'update',
      target: 'content',
      where: { id: ref(t.id), status: t.from, isActive: { ne: false } },
      set: { status: t.to, approvedAt: t.approvedAt, rejectionReason: t.rejectionReason, updatedAt: t.at },
      one: 'unchanged',
    },
    ...enqueueFollowUpSteps(t.id, t.followUps, t.at),
    auditEventStep({ ...t.event, targetCollection: 'content', targetId: t.id }),
  ]
  const last = steps.length - 1
  return { name: 'status_move', steps, domains: [contentDomainOf({ status: t.from }, { status: t.to })], rows: [t.id], afterStep: t.afterMove && ((i) => i === last && t.afterMove!()) }
}

/** True when the item moved; false when it was no longer as the request read it. */
export async function transitionStatus(payload: Payload, t: StatusTransition): Promise<boolean> {
  return (await engine().applyPlan(payload, statusMovePlan(t))).outcome === DONE
}
