import { newHexId } from '../ids'
import type { FollowUpKind } from '../moderationTypes'
import { ref, type Step } from '../writePlan'

/** Queues the jobs in the caller's plan; an existing (item, kind) job is kept as it is. */
export function enqueueFollowUpSteps(contentId: string, kinds: readonly FollowUpKind[], at: Date): Step[] {
  return kinds.map((kind) => ({
    op: 'insert',
    target: 'follow-ups',
    unlessExists: ['contentId', 'kind'],
    values: {
      id: ref(newHexId()),
      contentId,
      kind,
      status: 'queued',
      claimedBy: null,
      claimedUntil: null,
      attempts: 0,
      nextRunAt: at,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    },
  }))
}

/** The item's jobs still queued are dropped (its soft delete), in the caller's plan. */
export const cancelFollowUpsStep = (contentId: string): Step => ({
  op: 'delete',
  target: 'follow-ups',
  where: { contentId, status: 'queued' },
})
