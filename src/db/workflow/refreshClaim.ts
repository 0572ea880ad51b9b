/**
 * The refresh-token claim: the token is marked revoked only if it still is not, so of
 * concurrent presenters exactly one wins. With a reuse grace, the same update stores the
 * sealed successor, so a loser of the claim finds it.
 */
import type { Payload } from 'payload'

import type { ClaimResult, GraceSuccessor } from '../authTypes'
import { engine } from '../engine'
import type { WritePlan } from '../writePlan'

export function refreshClaimPlan(tokenHash: string, reason: string, now: Date, successor?: GraceSuccessor): WritePlan {
  return {
    name: 'refresh_claim',
    domains: [],
    steps: [
      {
        op: 'update',
        target: 'refresh-tokens',
        where: { tokenHash, revokedAt: null },
        set: { revokedAt: now, revokedReason: reason, updatedAt: now, graceToken: successor?.sealed ?? null, graceUntil: successor?.until ?? null },
        one: 'lost',
      },
    ],
  }
}

export async function claimRefreshToken(payload: Payload, tokenHash: string, reason: string, now: Date, successor?: GraceSuccessor): Promise<ClaimResult> {
  return { claimed: (await engine().applyPlan(payload, refreshClaimPlan(tokenHash, reason, now, successor))).outcome !== 'lost' }
}
