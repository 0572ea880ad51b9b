/**
 * A guarded one-document update recorded in the audit trail (soft delete, restore, taxonomy
 * rename): the update only while the fields still hold what the request read, its event, and
 * for a content soft delete the item's queued follow-ups cancelled, all or nothing.
 */
import type { Payload } from 'payload'

import { engine } from '../engine'
import type { RecordedUpdate, RecordedUpdateResult } from '../moderationTypes'
import { ref, type Step, type WritePlan } from '../writePlan'
import { auditEventStep } from './auditEvent'
import { cancelFollowUpsStep } from './followUpSteps'
import { moveSlugClaimSteps } from './slugClaim'

export function recordedUpdatePlan(u: RecordedUpdate): WritePlan {
  const steps: Step[] = [
    { op: 'update', target: u.collection, where: { id: ref(u.id), ...u.expect }, set: { ...u.set, updatedAt: u.event.at }, one: 'unchanged' },
    ...(u.cancelFollowUps ? [cancelFollowUpsStep(u.id)] : []),
    ...(u.slugClaim ? moveSlugClaimSteps(u.slugClaim.entity, u.id, u.slugClaim.slug) : []),
    auditEventStep({ ...u.event, targetCollection: u.collection, targetId: u.id }),
  ]
  const last = steps.length - 1
  const rows = u.collection === 'content' ? [u.id] : []
  return { name: 'recorded_update', steps, domains: [u.domain], rows, onUnique: 'taken', afterStep: u.afterWrite && ((i) => i === last && u.afterWrite!()) }
}

/** updated, unchanged (the guard no longer held) or taken (a unique key refused the new value). */
export async function recordedUpdate(payload: Payload, u: RecordedUpdate): Promise<RecordedUpdateResult> {
  const { outcome } = await engine().applyPlan(payload, recordedUpdatePlan(u))
  return outcome === 'unchanged' || outcome === 'taken' ? outcome : 'updated'
}
