'use client'
/**
 * The queue's rows, preview pane and actions. Keyboard: j/k move, a approve, r reject (the
 * reason bar takes focus; Enter confirms, Escape cancels), x select. Each action posts to
 * /api/content/moderation/<id>/<action> (the same services as the API) for the item the person
 * meant: the row is captured when the key is pressed.
 *
 * Two people at once, and fast hands (issue 53.1, 53.4):
 * - an item counts as decided from the key press: it leaves at once and never comes back, whatever
 *   a refresh computed before the decision reached every process; only a decision that failed
 *   puts its row back, in its place, marked with the reason;
 * - the reason is typed in a bar outside the rows, bound to the item(s) chosen when `r` was
 *   pressed: rows moving or leaving never unmount it, and while it is open no key reaches the
 *   shortcuts;
 * - the selection follows an item, not a position;
 * - every few seconds the queue asks what became of its rows (GET /api/content/moderation/status):
 *   rows someone else decided leave, saying who and when, and the count follows; a decision
 *   someone else made first, the same as this one, is a success for both.
 * The pending count is the server's, less the decisions made here it has not counted yet.
 */
import { Button, toast } from '@payloadcms/ui'
import { useRouter } from 'next/navigation'
import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react'

import type { QueueItem } from '../../../../src/services/moderationQueue'
import type { QueueStatus } from '../../../../src/services/moderationDecisions'
import { When } from './When'

type Action = 'approve' | 'reject'
type Decided = { by: { name: string } | null; at: string | null }
type Outcome = { ok: true; already?: Decided } | { ok: false; message: string; decidedBy?: Decided; status?: string }

async function moderate(id: string, action: Action, reason?: string): Promise<Outcome> {
  try {
    const res = await fetch(`/api/content/moderation/${id}/${action}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(reason ? { reason } : {}),
    })
    const body = (await res.json().catch(() => ({}))) as {
      data?: { alreadyDecided?: Decided }
      error?: { message?: string; details?: { status?: string; decidedBy?: Decided['by']; decidedAt?: string } }
    }
    if (res.ok) return { ok: true, already: body.data?.alreadyDecided }
    const details = body.error?.details
    return {
      ok: false,
      message: body.error?.message ?? `Could not ${action} this item (${res.status}).`,
      status: details?.status,
      decidedBy: details?.decidedBy !== undefined ? { by: details.decidedBy, at: details.decidedAt ?? null } : undefined,
    }
  } catch {
    return { ok: false, message: `Could not ${action} this item (network error).` }
  }
}

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)

/** One toast for decisions, one for errors, one for others' decisions: each new one replaces the last. */
const DECISION_TOAST = 'moderation-decision'
const ERROR_TOAST = 'moderation-error'
const OTHERS_TOAST = 'moderation-others'

/** How often the queue asks what became of its rows. */
const STATUS_EVERY_MS = 5_000
/** The refresh after decisions, past the service's cross-process freshness bound (50 ms). */
const REFRESH_AFTER_MS = 400

type Props = { rows: QueueItem[]; total: number; offset: number; canApprove: boolean; filters: string }

/**
 * Items decided from this page, from the key press on (a decision in flight counts). Kept
 * outside the component: a refresh may remount it with rows computed before a decision reached
 * every process, and a decided row must not come back.
 */
const decidedHere = new Set<string>()

/** The server's view of the queue: its count, and which of the shown rows it still counted as pending. */
type ServerView = { pending: number; stillPending: Set<string> }

export function ModerationList({ rows: initial, total, offset, canApprove, filters }: Props) {
  const router = useRouter()
  // Rows others decided while this page was open (left, never to come back here).
  const [goneElsewhere, setGoneElsewhere] = useState<Set<string>>(() => new Set())
  // Rows someone else has open in the edit view now (the status poll's light claim): id → name.
  const [editing, setEditing] = useState<Map<string, string>>(() => new Map())
  // Failed decisions: the row is back, with why.
  const [failed, setFailed] = useState<Map<string, string>>(() => new Map())
  // Bumped on each local decision, so the lists below are computed again.
  const [decisions, setDecisions] = useState(0)
  const rows = useMemo(
    () => initial.filter((r) => !decidedHere.has(r.id) && !goneElsewhere.has(r.id)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [initial, goneElsewhere, decisions],
  )
  const [server, setServer] = useState<ServerView>(() => ({ pending: total, stillPending: new Set(initial.map((r) => r.id)) }))
  useEffect(() => setServer({ pending: total, stillPending: new Set(initial.map((r) => r.id)) }), [initial, total])
  const pending = Math.max(0, server.pending - [...decidedHere].filter((id) => server.stillPending.has(id)).length)

  const [announcement, setAnnouncement] = useState('')
  const [activeId, setActiveId] = useState<string | undefined>(initial[0]?.id)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  /** The item(s) a rejection is being written for, chosen when it was opened. */
  const [rejecting, setRejecting] = useState<QueueItem[] | null>(null)
  const [reason, setReason] = useState('')
  const reasonRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (rejecting) reasonRef.current?.focus()
  }, [rejecting])

  // The selection follows its item; when the item leaves, the row that took its place.
  const lastIndex = useRef(0)
  const activeIndex = rows.findIndex((r) => r.id === activeId)
  if (activeIndex >= 0) lastIndex.current = activeIndex
  const current = activeIndex >= 0 ? rows[activeIndex] : rows[Math.min(lastIndex.current, rows.length - 1)]
  const currentIndex = current ? rows.indexOf(current) : -1

  const refreshSoon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const act = useCallback(
    async (targets: QueueItem[], action: Action, why?: string) => {
      const fresh = targets.filter((t) => !decidedHere.has(t.id))
      if (fresh.length === 0) return
      // Decided from now on: the rows leave and stay gone unless the decision fails.
      for (const t of fresh) decidedHere.add(t.id)
      setDecisions((n) => n + 1)
      setSelected((s) => new Set([...s].filter((id) => !fresh.some((t) => t.id === id))))
      setFailed((f) => {
        const next = new Map(f)
        for (const t of fresh) next.delete(t.id)
        return next
      })
      const outcomes = await Promise.all(fresh.map(async (t) => [t, await moderate(t.id, action, why)] as const))
      const back = new Map<string, string>()
      const done: QueueItem[] = []
      const elsewhere: string[] = []
      for (const [t, outcome] of outcomes) {
        if (outcome.ok) {
          done.push(t)
          if (outcome.already) elsewhere.push(`“${t.title}” was already ${action === 'approve' ? 'approved' : 'rejected'} by ${outcome.already.by?.name ?? 'someone'}.`)
        } else if (outcome.decidedBy) {
          // Decided otherwise by someone else: it stays out of this queue, and says so.
          elsewhere.push(`“${t.title}” was already ${outcome.status ?? 'decided'} by ${outcome.decidedBy.by?.name ?? 'someone'}.`)
        } else {
          decidedHere.delete(t.id)
          back.set(t.id, outcome.message)
        }
      }
      if (back.size > 0) {
        setFailed((f) => new Map([...f, ...back]))
        setDecisions((n) => n + 1)
        toast.error([...back.values()][0]!, { id: ERROR_TOAST })
      }
      if (elsewhere.length > 0) toast.info(elsewhere.join(' '), { id: OTHERS_TOAST })
      if (done.length > 0) {
        const verb = action === 'approve' ? 'Approved' : 'Rejected'
        const what = done.length === 1 ? `“${done[0]!.title}”` : `${done.length} items`
        toast.success(`${verb} ${what}.`, { id: DECISION_TOAST })
        setAnnouncement([`${verb} ${what}.`, ...elsewhere].join(' '))
      } else if (elsewhere.length > 0) setAnnouncement(elsewhere.join(' '))
      clearTimeout(refreshSoon.current)
      refreshSoon.current = setTimeout(() => router.refresh(), REFRESH_AFTER_MS)
    },
    [router],
  )

  // What became of the rows shown: others' decisions leave, the count follows.
  const shownIds = useMemo(() => rows.map((r) => r.id).join(','), [rows])
  useEffect(() => {
    let stopped = false
    const ask = async () => {
      const asked = shownIds ? shownIds.split(',') : []
      try {
        const res = await fetch(`/api/content/moderation/status?${filters}${filters ? '&' : ''}ids=${asked.join(',')}`, { credentials: 'same-origin' })
        if (!res.ok || stopped) return
        const status = ((await res.json()) as { data: QueueStatus }).data
        const others = status.decided.filter((d) => !decidedHere.has(d.id))
        setServer({ pending: status.pending, stillPending: new Set(asked.filter((id) => !status.decided.some((d) => d.id === id))) })
        setEditing(new Map((status.editing ?? []).map((e) => [e.id, e.by.name])))
        if (others.length > 0) {
          setGoneElsewhere((g) => new Set([...g, ...others.map((d) => d.id)]))
          const titles = new Map(initial.map((r) => [r.id, r.title]))
          const said = others.map((d) => `“${titles.get(d.id) ?? 'An item'}” was ${d.status} by ${d.by?.name ?? 'someone'}.`).join(' ')
          toast.info(said, { id: OTHERS_TOAST })
          setAnnouncement(said)
        }
      } catch {
        // Offline for a moment: the next ask tells.
      }
    }
    const timer = setInterval(() => void ask(), STATUS_EVERY_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [filters, initial, shownIds])

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  const openReject = useCallback((targets: QueueItem[]) => {
    if (targets.length === 0) return
    setReason('')
    setRejecting(targets)
  }, [])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A rejection being written takes every key (its field has focus; if it lost it, keys still never decide anything).
      if (rejecting || e.metaKey || e.ctrlKey || e.altKey || typing(e.target) || !current) return
      if (e.key === 'j') setActiveId(rows[Math.min(currentIndex + 1, rows.length - 1)]?.id)
      else if (e.key === 'k') setActiveId(rows[Math.max(currentIndex - 1, 0)]?.id)
      else if (e.key === 'x' && canApprove) toggle(current.id)
      else if (e.key === 'a' && canApprove) void act([current], 'approve')
      else if (e.key === 'r' && canApprove) openReject([current])
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [act, canApprove, current, currentIndex, openReject, rejecting, rows])
  // After the listener above is attached (effects run in order): the page now takes its keys.
  // Until hydration a key press does nothing; `data-keys` says when it will.
  const [keysReady, setKeysReady] = useState(false)
  useEffect(() => setKeysReady(true), [])

  // The selected row, announced as the keys move it.
  useEffect(() => {
    if (keysReady && current) setAnnouncement(`${currentIndex + 1} of ${rows.length}: ${current.title}`)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeId])

  const count = (
    <p className="moderation-count" aria-live="polite">
      {pending} pending submission{pending === 1 ? '' : 's'}
      {pending > rows.length ? ` (showing ${rows.length ? offset + 1 : 0}–${offset + rows.length})` : ''}
    </p>
  )
  const announcer = (
    <div role="status" aria-live="polite" className="queue-announcer">
      {announcement}
    </div>
  )

  const confirmReject = () => {
    if (!rejecting) return
    const targets = rejecting
    setRejecting(null)
    void act(targets, 'reject', reason.trim() || undefined)
  }
  const rejectBar = rejecting && (
    <div className="queue-reject-bar" role="group" aria-label="Reject">
      <label htmlFor="rejection-reason">
        Reject {rejecting.length === 1 ? `“${rejecting[0]!.title}”` : `${rejecting.length} selected`}:
      </label>
      <input
        id="rejection-reason"
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
        {rejecting.length === 1 ? 'Confirm reject' : `Reject ${rejecting.length} selected`}
      </Button>
      <Button size="small" margin={false} buttonStyle="secondary" onClick={() => setRejecting(null)}>
        Cancel
      </Button>
    </div>
  )

  if (rows.length === 0)
    return (
      <>
        {count}
        {announcer}
        <p className="moderation-empty">
          {filters ? (
            <>
              Nothing waiting matches these filters. <a href="/admin/moderation">Show every pending item</a>
            </>
          ) : (
            'Nothing is waiting for review.'
          )}
        </p>
      </>
    )

  return (
    <div className="moderation-queue" data-keys={keysReady ? 'ready' : undefined}>
      {count}
      {announcer}
      {canApprove && (
        <div className="queue-bulk">
          <Button buttonStyle="secondary" size="small" disabled={selected.size === 0} onClick={() => void act(rows.filter((r) => selected.has(r.id)), 'approve')}>
            Approve selected ({selected.size})
          </Button>
          <Button buttonStyle="secondary" size="small" disabled={selected.size === 0} onClick={() => openReject(rows.filter((r) => selected.has(r.id)))}>
            Reject selected ({selected.size})
          </Button>
          <span className="queue-keys">Keys: j/k move · a approve · r reject · x select</span>
        </div>
      )}
      {rejectBar}
      <div className="queue-layout">
        <div className="queue-rows">
          <table className="queue-table">
            <thead>
              <tr>
                {canApprove && (
                  <th>
                    <span className="queue-visually-hidden">Select</span>
                  </th>
                )}
                <th>Title</th>
                <th>Submitted</th>
                {canApprove && <th>Actions</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const isCurrent = row.id === current?.id
                const error = failed.get(row.id)
                return (
                  <tr
                    key={row.id}
                    data-slug={row.slug}
                    aria-selected={isCurrent}
                    className={`queue-row${isCurrent ? ' queue-row--active' : ''}${error ? ' queue-row--failed' : ''}`}
                    onClick={() => setActiveId(row.id)}
                  >
                    {canApprove && (
                      <td className="queue-select">
                        <input type="checkbox" aria-label={`Select ${row.title}`} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />
                      </td>
                    )}
                    <td className="queue-title">
                      <a href={`/admin/collections/content/${row.id}`}>{row.title}</a>
                      <div className="queue-meta">{[row.group, row.platform, ...row.tagSlugs].filter(Boolean).join(' · ') || '—'}</div>
                      {editing.has(row.id) && <div className="queue-editing">{editing.get(row.id)} is editing this</div>}
                      {error && (
                        <div className="queue-row-error" role="alert">
                          {error}
                        </div>
                      )}
                    </td>
                    <td className="queue-submitted">
                      {row.submitter?.username ?? row.submitter?.email ?? '—'}
                      <div className="queue-meta">
                        <When iso={row.createdAt} />
                      </div>
                    </td>
                    {canApprove && (
                      <td className="queue-actions">
                        <Button size="small" margin={false} onClick={() => void act([row], 'approve')}>
                          Approve
                        </Button>
                        <Button
                          size="small"
                          margin={false}
                          buttonStyle="secondary"
                          onClick={() => {
                            setActiveId(row.id)
                            openReject([row])
                          }}
                        >
                          Reject
                        </Button>
                      </td>
                    )}
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
        {current && (
          <aside className="queue-preview" data-slug={current.slug} aria-label="Preview">
            <h3>{current.title}</h3>
            {editing.has(current.id) && (
              <p className="queue-editing" role="status">
                {editing.get(current.id)} is editing this item: decide together, or pick another.
              </p>
            )}
            <p>
              <a href={current.url} target="_blank" rel="noreferrer noopener" className="queue-preview-url">
                {current.url}
              </a>
            </p>
            {current.sameUrl.length > 0 && (
              <p className="queue-duplicate-warning" role="alert">
                Same URL as {current.sameUrl.map((o) => `${o.slug} (${o.status})`).join(', ')}
              </p>
            )}
            {current.description && <p>{current.description}</p>}
            <dl className="queue-facts">
              <dt>Group</dt>
              <dd>
                {current.group ?? '—'}
                {current.channel ? ` / ${current.channel}` : ''}
              </dd>
              <dt>Platform</dt>
              <dd>{current.platform ?? '—'}</dd>
              <dt>Tags</dt>
              <dd>{current.tagSlugs.join(', ') || '—'}</dd>
              <dt>Submitted</dt>
              <dd>
                <When iso={current.createdAt} />
              </dd>
            </dl>
            <div className="queue-submitter">
              <strong>Submitter</strong>
              {current.submitter ? (
                <p>
                  {current.submitter.username ?? current.submitter.email ?? current.submitter.id}
                  {current.submitter.username && current.submitter.email ? <span className="queue-meta"> ({current.submitter.email})</span> : null}
                  <br />
                  <span data-testid="submitter-record">
                    {current.submitter.approved} approved · {current.submitter.rejected} rejected
                  </span>
                </p>
              ) : (
                <p>Unknown</p>
              )}
            </div>
          </aside>
        )}
      </div>
    </div>
  )
}
