import type { Payload } from 'payload'

import type { FollowUpDepth, FollowUpRow } from '../moderationTypes'

/** The follow-up outbox as stored (its moves are plans: src/db/workflow/followUpOutbox.ts). */
export type OutboxReadPort = {
  listFollowUps(payload: Payload, contentId: string): Promise<FollowUpRow[]>
  followUpDepth(payload: Payload, now: Date): Promise<FollowUpDepth>
}
