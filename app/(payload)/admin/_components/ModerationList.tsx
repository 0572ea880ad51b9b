'use client'
/**
 * The queue's rows, preview pane and actions. Keyboard: j/k move, a approve, r reject (the
 * reason field takes focus; Enter confirms, Escape cancels), x select. Actions are optimistic:
 * the row leaves at once and comes back, with an error, if the server refuses. Each action
 * posts to /api/content/moderation/<id>/<action> (the same services as the API). The pending
 * count is exact after each decision (the server's count less the decisions it may not have
 * seen yet); the selected row and each decision are announced through a live region; a new
 * toast replaces the last one instead of piling up.
 */
import { Button, toast } from '@payloadcms/ui'
import { useRouter } from 'next/navigation'
import React, { useCallback, useEffect, useRef, useState } from 'react'

import type { QueueItem } from '../../../../src/services/moderationQueue'
import { timeAgo } from './timeAgo'

const cell: React.CSSProperties = { padding: '8px 10px', verticalAlign: 'top' }

async function moderate(id: string, action: 'approve' | 'reject', reason?: string): Promise<string | null> {
  try {
    const res = await fetch(`/api/content/moderation/${id}/${action}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(reason ? { reason } : {}),
    })
    if (res.ok) return null
    const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } }
    return body.error?.message ?? `Could not ${action} this item (${res.status}).`
  } catch {
    return `Could not ${action} this item (network error).`
  }
}

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)

/** One toast for decisions and one for errors: each new one replaces the last. */
const DECISION_TOAST = 'moderation-decision'
const ERROR_TOAST = 'moderation-error'

type Props = { rows: QueueItem[]; total: number; offset: number; canApprove: boolean }

/**
 * Items decided from this page. Kept outside the component: the refresh after a decision may
 * remount it with a count another server process computed before it saw the decision (a write
 * is served by every process within 50 ms, not at once), and the count must not go back up.
 */
const decidedHere = new Set<string>()

/**
 * The refresh after a decision waits past the service's cross-process freshness bound (every
 * process serves a write within 50 ms): answered sooner by another worker, its count could still
 * hold the decided item while its rows no longer did.
 */
const REFRESH_AFTER_MS = 100

export function ModerationList({ rows: initial, total, offset, canApprove }: Props) {
  const router = useRouter()
  const undecided = useCallback((list: QueueItem[]) => list.filter((r) => !decidedHere.has(r.id)), [])
  const [rows, setRows] = useState(() => undecided(initial))
  // The server's count less the decisions it has not seen yet (those still among its rows).
  const [, setDecisions] = useState(0)
  const [announcement, setAnnouncement] = useState('')
  const pending = total - initial.filter((r) => decidedHere.has(r.id)).length
  const [active, setActive] = useState(0)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [rejecting, setRejecting] = useState<'row' | 'bulk' | null>(null)
  const [reason, setReason] = useState('')
  const reasonRef = useRef<HTMLInputElement>(null)
  // A decided item stays gone even when a refresh answered before its process saw the decision.
  useEffect(() => setRows(undecided(initial)), [initial, undecided])
  useEffect(() => {
    if (rejecting) reasonRef.current?.focus()
  }, [rejecting])
  const current = rows[Math.min(active, rows.length - 1)]

  /** Optimistic: the rows leave now; any the server refuses come back in place, with the error. */
  const act = useCallback(
    async (targets: QueueItem[], action: 'approve' | 'reject', why?: string) => {
      if (targets.length === 0) return
      const before = rows
      const ids = new Set(targets.map((t) => t.id))
      setRows((r) => r.filter((x) => !ids.has(x.id)))
      setSelected(new Set())
      setRejecting(null)
      setReason('')
      const failures = (await Promise.all(targets.map(async (t) => [t.id, await moderate(t.id, action, why)] as const))).filter(([, e]) => e)
      const failed = new Set(failures.map(([id]) => id))
      if (failures.length > 0) {
        setRows((r) => before.filter((x) => failed.has(x.id) || r.some((y) => y.id === x.id)))
        toast.error(failures[0]![1]!, { id: ERROR_TOAST })
      }
      const succeeded = targets.filter((t) => !failed.has(t.id))
      if (succeeded.length === 0) return
      for (const t of succeeded) decidedHere.add(t.id)
      setDecisions((n) => n + succeeded.length)
      const verb = action === 'approve' ? 'Approved' : 'Rejected'
      const what = succeeded.length === 1 ? `“${succeeded[0]!.title}”` : `${succeeded.length} items`
      toast.success(`${verb} ${what}.`, { id: DECISION_TOAST })
      setAnnouncement(`${verb} ${what}.`)
      setTimeout(() => router.refresh(), REFRESH_AFTER_MS)
    },
    [rows, router],
  )

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || typing(e.target) || !current) return
      if (e.key === 'j') setActive((i) => Math.min(i + 1, rows.length - 1))
      else if (e.key === 'k') setActive((i) => Math.max(i - 1, 0))
      else if (e.key === 'x' && canApprove) toggle(current.id)
      else if (e.key === 'a' && canApprove) void act([current], 'approve')
      else if (e.key === 'r' && canApprove) setRejecting('row')
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [act, canApprove, current, rows.length])
  // After the listener above is attached (effects run in order): the page now takes its keys.
  // Until hydration a key press does nothing; `data-keys` says when it will.
  const [keysReady, setKeysReady] = useState(false)
  useEffect(() => setKeysReady(true), [])

  // The selected row, announced as the keys move it.
  useEffect(() => {
    if (keysReady && current) setAnnouncement(`${active + 1} of ${rows.length}: ${current.title}`)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active])

  const count = (
    <p className="moderation-count">
      {pending} pending submission{pending === 1 ? '' : 's'}
      {pending > rows.length ? ` (showing ${rows.length ? offset + 1 : 0}–${offset + rows.length})` : ''}
    </p>
  )
  const announcer = (
    <div role="status" aria-live="polite" className="queue-announcer" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }}>
      {announcement}
    </div>
  )

  if (rows.length === 0)
    return (
      <>
        {count}
        {announcer}
        <p className="moderation-empty">Nothing is waiting for review.</p>
      </>
    )

  const confirmReject = () => {
    const why = reason.trim() || undefined
    if (rejecting === 'bulk') void act(rows.filter((r) => selected.has(r.id)), 'reject', why)
    else if (current) void act([current], 'reject', why)
  }
  const reasonField = (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
      <input
        ref={reasonRef}
        name="rejection-reason"
        placeholder="Reason (optional)"
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') confirmReject()
          if (e.key === 'Escape') setRejecting(null)
        }}
      />
      <Button size="small" margin={false} buttonStyle="error" onClick={confirmReject}>
        {rejecting === 'bulk' ? `Reject ${selected.size} selected` : 'Confirm reject'}
      </Button>
      <Button size="small" margin={false} buttonStyle="secondary" onClick={() => setRejecting(null)}>
        Cancel
      </Button>
    </span>
  )

  return (
    <div className="moderation-queue" data-keys={keysReady ? 'ready' : undefined}>
      {count}
      {announcer}
      {canApprove && (
        <div className="queue-bulk" style={{ display: 'flex', gap: 12, alignItems: 'center', margin: '12px 0', flexWrap: 'wrap' }}>
          <Button buttonStyle="secondary" size="small" disabled={selected.size === 0} onClick={() => void act(rows.filter((r) => selected.has(r.id)), 'approve')}>
            Approve selected ({selected.size})
          </Button>
          <Button buttonStyle="secondary" size="small" disabled={selected.size === 0} onClick={() => setRejecting('bulk')}>
            Reject selected ({selected.size})
          </Button>
          {rejecting === 'bulk' && reasonField}
          <span style={{ color: 'var(--theme-elevation-650)', fontSize: 12 }}>Keys: j/k move · a approve · r reject · x select</span>
        </div>
      )}
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 340px', gap: 24, alignItems: 'start' }}>
        <div style={{ overflowX: 'auto', minWidth: 0 }}>
          <table className="queue-table" style={{ width: '100%', borderCollapse: 'collapse' }}>
            <thead>
              <tr style={{ textAlign: 'left' }}>
                {canApprove && <th style={cell} />}
                <th style={cell}>Title</th>
                <th style={cell}>Submitted</th>
                {canApprove && <th style={cell}>Actions</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr
                  key={row.id}
                  data-slug={row.slug}
                  aria-selected={row.id === current?.id}
                  className={row.id === current?.id ? 'queue-row queue-row--active' : 'queue-row'}
                  onClick={() => setActive(i)}
                  style={{
                    borderTop: '1px solid var(--theme-elevation-100)',
                    background: row.id === current?.id ? 'var(--theme-elevation-100)' : undefined,
                    boxShadow: row.id === current?.id ? 'inset 3px 0 0 #16a34a' : undefined,
                  }}
                >
                  {canApprove && (
                    <td style={cell}>
                      <input type="checkbox" aria-label={`Select ${row.title}`} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />
                    </td>
                  )}
                  <td style={cell}>
                    <a href={`/admin/collections/content/${row.id}`}>{row.title}</a>
                    <div style={{ fontSize: 12, color: 'var(--theme-elevation-650)' }}>{[row.group, row.platform, ...row.tagSlugs].filter(Boolean).join(' · ') || '—'}</div>
                  </td>
                  <td style={{ ...cell, fontSize: 13 }}>
                    {row.submitter?.email ?? '—'}
                    <div style={{ color: 'var(--theme-elevation-650)' }}>{timeAgo(row.createdAt)} ago</div>
                  </td>
                  {canApprove && (
                    <td style={{ ...cell, whiteSpace: 'nowrap' }}>
                      {rejecting === 'row' && row.id === current?.id ? (
                        reasonField
                      ) : (
                        <span style={{ display: 'inline-flex', gap: 8 }}>
                          <Button size="small" margin={false} onClick={() => void act([row], 'approve')}>
                            Approve
                          </Button>
                          <Button
                            size="small"
                            margin={false}
                            buttonStyle="secondary"
                            onClick={() => {
                              setActive(i)
                              setRejecting('row')
                            }}
                          >
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
        {current && (
          <aside className="queue-preview" data-slug={current.slug} style={{ border: '1px solid var(--theme-elevation-150)', borderRadius: 6, padding: 16, position: 'sticky', top: 16 }}>
            <h3 style={{ marginTop: 0 }}>{current.title}</h3>
            <p>
              <a href={current.url} target="_blank" rel="noreferrer noopener" className="queue-preview-url">
                {current.url}
              </a>
            </p>
            {current.sameUrl.length > 0 && (
              <p className="queue-duplicate-warning" role="alert" style={{ color: 'var(--theme-warning-500)', fontWeight: 600 }}>
                Same URL as {current.sameUrl.map((o) => `${o.slug} (${o.status})`).join(', ')}
              </p>
            )}
            {current.description && <p>{current.description}</p>}
            <dl style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 12px', margin: 0 }}>
              <dt>Group</dt>
              <dd style={{ margin: 0 }}>{current.group ?? '—'}{current.channel ? ` / ${current.channel}` : ''}</dd>
              <dt>Platform</dt>
              <dd style={{ margin: 0 }}>{current.platform ?? '—'}</dd>
              <dt>Tags</dt>
              <dd style={{ margin: 0 }}>{current.tagSlugs.join(', ') || '—'}</dd>
              <dt>Submitted</dt>
              <dd style={{ margin: 0 }}>{new Date(current.createdAt).toLocaleString()}</dd>
            </dl>
            <div className="queue-submitter" style={{ marginTop: 12, paddingTop: 12, borderTop: '1px solid var(--theme-elevation-150)' }}>
              <strong>Submitter</strong>
              {current.submitter ? (
                <p style={{ margin: '4px 0 0' }}>
                  {current.submitter.email ?? current.submitter.id}
                  <br />
                  <span data-testid="submitter-record">
                    {current.submitter.approved} approved · {current.submitter.rejected} rejected
                  </span>
                </p>
              ) : (
                <p style={{ margin: '4px 0 0' }}>Unknown</p>
              )}
            </div>
          </aside>
        )}
      </div>
    </div>
  )
}
