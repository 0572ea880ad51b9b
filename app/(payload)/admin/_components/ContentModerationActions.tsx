'use client'
/**
 * Approve / reject / delete from a content item's edit view. The workflow fields themselves
 * are read-only: these buttons call the same services as the API (POST
 * /api/content/moderation/<id>/<action>), each checking its permission.
 */
import { Button, toast, useDocumentInfo, useFormFields } from '@payloadcms/ui'
import { useRouter } from 'next/navigation'
import React, { useState } from 'react'

import { useConsolePermissions } from './useConsolePermissions'

export function ContentModerationActions() {
  const { id } = useDocumentInfo()
  const status = useFormFields(([fields]) => fields.status?.value as string | undefined)
  const isActive = useFormFields(([fields]) => fields.isActive?.value as boolean | undefined)
  const router = useRouter()
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const permissions = useConsolePermissions() ?? []
  const canModerate = status === 'pending' && isActive !== false && permissions.includes('content.approve')
  const canDelete = isActive !== false && permissions.includes('content.delete')
  const canRestore = isActive === false && permissions.includes('content.delete')
  if (!id || (!canModerate && !canDelete && !canRestore)) return null

  const done = { approve: 'Approved.', reject: 'Rejected.', delete: 'Deleted (hidden; the record is kept).', restore: 'Restored.' }
  const act = async (action: 'approve' | 'reject' | 'delete' | 'restore') => {
    if (action === 'delete' && !window.confirm('Delete this item? It is hidden from every list; the record is kept.')) return
    setBusy(true)
    try {
      const res = await fetch(`/api/content/moderation/${id}/${action}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(action === 'reject' && reason.trim() ? { reason: reason.trim() } : {}),
      })
      const body = await res.json().catch(() => ({}))
      if (!res.ok) toast.error(body?.error?.message ?? `Could not ${action}.`)
      else {
        toast.success(done[action])
        router.refresh()
      }
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="content-moderation" style={{ marginBottom: 16 }}>
      <strong>Moderation</strong>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8, marginTop: 8 }}>
        {canModerate && (
          <>
            <Button size="small" disabled={busy} onClick={() => void act('approve')}>
              Approve
            </Button>
            <input name="rejection-reason" placeholder="Rejection reason (optional)" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
            <Button size="small" buttonStyle="secondary" disabled={busy} onClick={() => void act('reject')}>
              Reject
            </Button>
          </>
        )}
        {canDelete && (
          <Button size="small" buttonStyle="error" disabled={busy} onClick={() => void act('delete')}>
            Delete
          </Button>
        )}
        {canRestore && (
          <Button size="small" buttonStyle="secondary" disabled={busy} onClick={() => void act('restore')}>
            Restore
          </Button>
        )}
      </div>
    </div>
  )
}
