/** One audit event in a sentence: who did what to which item, when, and why. */
import React from 'react'

import type { ModerationEventDto } from '../../../../src/services/moderationEvents'
import { When } from './When'

const VERBS: Record<ModerationEventDto['action'], string> = {
  approve: 'approved',
  reject: 'rejected',
  delete: 'deleted',
  restore: 'restored',
  'tag.rename': 'renamed tag',
  'taxonomy.rename': 'renamed',
}

export const targetHref = (e: ModerationEventDto) => `/admin/collections/${e.target.collection}/${e.target.id}`

export function EventLine({ event: e }: { event: ModerationEventDto }) {
  const who = e.actor ? (e.actor.username ?? e.actor.email ?? e.actor.id) : 'system'
  const renamed = e.action === 'tag.rename' || e.action === 'taxonomy.rename'
  return (
    <span className="event-line" data-action={e.action}>
      <strong>{who}</strong> {VERBS[e.action]} <a href={targetHref(e)}>{renamed ? `${e.stateBefore} → ${e.stateAfter}` : (e.target.title ?? e.target.slug)}</a>
      {e.reason && !renamed ? <em> — “{e.reason}”</em> : null} <span style={{ color: 'var(--theme-elevation-650)' }}>
        <When iso={e.at} />
      </span>
    </span>
  )
}
