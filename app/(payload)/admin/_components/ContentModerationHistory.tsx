'use client'
/** A content item's audit trail in its sidebar: every approve, reject, delete and restore, newest first. */
import { useDocumentInfo, useFormFields } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'

import type { ModerationEventDto } from '../../../../src/services/moderationEvents'
import { useConsolePermissions } from './useConsolePermissions'
import { When } from './When'

export function ContentModerationHistory() {
  const { id } = useDocumentInfo()
  // Refetch when a moderation action changes the item.
  const status = useFormFields(([fields]) => fields.status?.value as string | undefined)
  const isActive = useFormFields(([fields]) => fields.isActive?.value as boolean | undefined)
  const [events, setEvents] = useState<ModerationEventDto[] | null>(null)
  const allowed = useConsolePermissions()?.includes('content.moderate') ?? false
  useEffect(() => {
    if (!id || !allowed) return
    let live = true
    fetch(`/api/moderation-events/history/${id}`, { credentials: 'same-origin' })
      .then((r) => r.json())
      .then((body: { data?: ModerationEventDto[] }) => live && setEvents(body.data ?? []))
      .catch(() => live && setEvents([]))
    return () => {
      live = false
    }
  }, [id, allowed, status, isActive])
  if (!id || !allowed) return null
  return (
    <div className="content-moderation-history" style={{ marginBottom: 16 }}>
      <strong>History</strong>
      {events === null ? (
        <p>Loading…</p>
      ) : events.length === 0 ? (
        <p style={{ color: 'var(--theme-elevation-650)' }}>No moderation yet.</p>
      ) : (
        <ul style={{ listStyle: 'none', padding: 0, margin: '8px 0 0', fontSize: 13 }}>
          {events.map((e) => (
            <li key={e.id} data-action={e.action} style={{ marginBottom: 6 }}>
              <strong>{e.action}</strong> by {e.actor ? (e.actor.email ?? e.actor.id) : 'system'}
              <br />
              <span style={{ color: 'var(--theme-elevation-650)' }}>
                <When iso={e.at} />
              </span>
              {e.stateBefore || e.stateAfter ? ` · ${e.stateBefore ?? '—'} → ${e.stateAfter ?? '—'}` : ''}
              {e.reason ? <em> — “{e.reason}”</em> : null}
            </li>
          ))}
        </ul>
      )}
      <a href={`/admin/audit?target=${id}`} style={{ fontSize: 12 }}>Open in the audit log</a>
    </div>
  )
}
