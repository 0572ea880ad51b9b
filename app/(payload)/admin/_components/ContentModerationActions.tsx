'use client'
/** Approve / reject from a content item's edit view; the status field itself stays read-only. */
import { Button, toast, useAuth, useDocumentInfo, useFormFields } from '@payloadcms/ui'
import { useRouter } from 'next/navigation'
import React, { useState } from 'react'

import { permissionsOfUser } from '../../../../access/userPermissions'

export function ContentModerationActions() {
  const { id } = useDocumentInfo()
  const { user } = useAuth()
  const status = useFormFields(([fields]) => fields.status?.value as string | undefined)
  const router = useRouter()
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  if (!id || status !== 'pending' || !permissionsOfUser(user as never).includes('content.approve')) return null

  const act = async (action: 'approve' | 'reject') => {
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
        toast.success(action === 'approve' ? 'Approved.' : 'Rejected.')
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
        <Button size="small" disabled={busy} onClick={() => void act('approve')}>
          Approve
        </Button>
        <input name="rejection-reason" placeholder="Rejection reason (optional)" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        <Button size="small" buttonStyle="secondary" disabled={busy} onClick={() => void act('reject')}>
          Reject
        </Button>
      </div>
    </div>
  )
}
