'use client'
/** The queue's rows and actions. Each action posts to /api/content/moderation/<id>/<action>. */
import { Button, toast } from '@payloadcms/ui'
import { useRouter } from 'next/navigation'
import React, { useState } from 'react'

export type QueueRow = {
  id: string
  slug: string
  title: string
  url: string
  submittedBy: string | null
  tags: string[]
  group: string | null
  createdAt: string
}

async function moderate(id: string, action: 'approve' | 'reject', reason?: string): Promise<boolean> {
  const res = await fetch(`/api/content/moderation/${id}/${action}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(reason ? { reason } : {}),
  })
  const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } }
  if (!res.ok) toast.error(body.error?.message ?? `Could not ${action} this item.`)
  return res.ok
}

export function ModerationList({ rows, canApprove }: { rows: QueueRow[]; canApprove: boolean }) {
  const router = useRouter()
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [rejecting, setRejecting] = useState<string | null>(null)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true)
    try {
      await work()
    } finally {
      setBusy(false)
      setSelected(new Set())
      router.refresh()
    }
  }

  if (rows.length === 0) return <p className="moderation-empty">Nothing is waiting for review.</p>

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  return (
    <div className="moderation-queue">
      {canApprove && (
        <div style={{ display: 'flex', gap: 12, alignItems: 'center', margin: '12px 0' }}>
          <Button
            buttonStyle="secondary"
            size="small"
            disabled={busy || selected.size === 0}
            onClick={() =>
              run(async () => {
                let ok = 0
                for (const id of selected) if (await moderate(id, 'approve')) ok++
                toast.success(`Approved ${ok} item${ok === 1 ? '' : 's'}.`)
              })
            }
          >
            Approve selected ({selected.size})
          </Button>
        </div>
      )}
      <table className="table" style={{ width: '100%' }}>
        <thead>
          <tr>
            {canApprove && <th />}
            <th>Title</th>
            <th>Submitter</th>
            <th>Group</th>
            <th>Tags</th>
            <th>Submitted</th>
            {canApprove && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-slug={row.slug}>
              {canApprove && (
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.title}`}
                    checked={selected.has(row.id)}
                    onChange={() => toggle(row.id)}
                  />
                </td>
              )}
              <td>
                <a href={`/admin/collections/content/${row.id}`}>{row.title}</a>
                <br />
                <a href={row.url} target="_blank" rel="noreferrer noopener" style={{ fontSize: 12 }}>
                  {row.url}
                </a>
              </td>
              <td>{row.submittedBy ?? '—'}</td>
              <td>{row.group ?? '—'}</td>
              <td>{row.tags.join(', ') || '—'}</td>
              <td>{new Date(row.createdAt).toLocaleString()}</td>
              {canApprove && (
                <td>
                  {rejecting === row.id ? (
                    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
                      <input
                        name="rejection-reason"
                        placeholder="Reason (optional)"
                        maxLength={500}
                        value={reason}
                        onChange={(e) => setReason(e.target.value)}
                      />
                      <Button
                        size="small"
                        buttonStyle="error"
                        disabled={busy}
                        onClick={() =>
                          run(async () => {
                            if (await moderate(row.id, 'reject', reason.trim() || undefined)) toast.success('Rejected.')
                            setRejecting(null)
                            setReason('')
                          })
                        }
                      >
                        Confirm reject
                      </Button>
                      <Button size="small" buttonStyle="secondary" onClick={() => setRejecting(null)}>
                        Cancel
                      </Button>
                    </span>
                  ) : (
                    <span style={{ display: 'inline-flex', gap: 8 }}>
                      <Button
                        size="small"
                        disabled={busy}
                        onClick={() => run(async () => (await moderate(row.id, 'approve')) && toast.success('Approved.'))}
                      >
                        Approve
                      </Button>
                      <Button size="small" buttonStyle="secondary" disabled={busy} onClick={() => setRejecting(row.id)}>
                        Reject
                      </Button>
                    </span>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
