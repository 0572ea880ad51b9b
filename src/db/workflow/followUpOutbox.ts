/**
 * The follow-up outbox's moves: a runner claims the oldest due job whose previous claim (if
 * any) has lapsed, then marks it done or failed while it still holds the claim. Jobs are
 * queued by the decision's own plan (./statusMove), so an approval never commits without them.
 */
import type { Payload } from 'payload'

import { engine } from '../engine'
import type { ClaimedFollowUp, ClaimRequest, FollowUpFailure, FollowUpKind } from '../moderationTypes'
import { DONE, ref, type WritePlan } from '../writePlan'

export function claimFollowUpPlan(claim: ClaimRequest): WritePlan {
  return {
    name: 'follow_up_claim',
    domains: [],
    steps: [
      {
        op: 'claimOne',
        target: 'follow-ups',
        where: { status: 'queued', nextRunAt: { lte: claim.now }, claimedUntil: { lt: claim.now, orNull: true } },
        oldest: 'nextRunAt',
        set: { claimedBy: claim.worker, claimedUntil: new Date(claim.now.getTime() + claim.leaseMs), updatedAt: claim.now },
        inc: { attempts: 1 },
        read: ['id', 'contentId', 'kind', 'attempts'],
      },
    ],
  }
}

export async function claimFollowUp(payload: Payload, claim: ClaimRequest): Promise<ClaimedFollowUp | null> {
  const row = (await engine().applyPlan(payload, claimFollowUpPlan(claim))).claimed
  return row ? { id: String(row.id), contentId: String(row.contentId), kind: row.kind as FollowUpKind, attempts: Number(row.attempts) } : null
}

/** Only while `worker` still holds the job. */
const held = (id: string, worker: string) => ({ id: ref(id), claimedBy: worker, status: 'queued' })

export function completeFollowUpPlan(id: string, worker: string, at: Date): WritePlan {
  return {
    name: 'follow_up_done',
    domains: [],
    steps: [{ op: 'update', target: 'follow-ups', where: held(id, worker), set: { status: 'done', claimedUntil: null, lastError: null, updatedAt: at }, one: 'lost' }],
  }
}

/** Back in the queue at `retryAt`, or failed for good. */
export function failFollowUpPlan(f: FollowUpFailure): WritePlan {
  return {
    name: 'follow_up_failed',
    domains: [],
    steps: [
      {
        op: 'update',
        target: 'follow-ups',
        where: held(f.id, f.worker),
        set: { status: f.retryAt ? 'queued' : 'failed', ...(f.retryAt ? { nextRunAt: f.retryAt } : {}), claimedUntil: null, lastError: f.error, updatedAt: f.at },
        one: 'lost',
      },
    ],
  }
}

/** False when the claim was lost meanwhile. */
export async function completeFollowUp(payload: Payload, id: string, worker: string, at: Date): Promise<boolean> {
  return (await engine().applyPlan(payload, completeFollowUpPlan(id, worker, at))).outcome === DONE
}

export async function failFollowUp(payload: Payload, f: FollowUpFailure): Promise<boolean> {
  return (await engine().applyPlan(payload, failFollowUpPlan(f))).outcome === DONE
}
