/**
 * The moderation audit trail as a filterable log (/admin/audit), for content.moderate
 * holders: action, actor, target (slug or id) and date range, newest first, 50 a page.
 * Read through the same service as GET /api/v1/moderation/events.
 */
import type { AdminViewServerProps } from 'payload'
import React from 'react'

import { permissionsOfUser } from '../../../../access/userPermissions'
import { moderationEventFilters } from '../../../../endpoints/queries'
import { parseQuery } from '../../../../src/edge/validation'
import { MODERATION_ACTIONS } from '../../../../src/db/moderationTypes'
import { ApiError } from '../../../../src/platform/errors'
import { listModerationEvents, type ModerationEventDto } from '../../../../src/services/moderationEvents'
import { ConsolePage } from './ConsolePage'
import { targetHref } from './EventLine'
import { When } from './When'

const PAGE = 50

function queryOf(searchParams: AdminViewServerProps['searchParams']): URLSearchParams {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(searchParams ?? {})) {
    const value = Array.isArray(v) ? v[0] : v
    if (typeof value === 'string' && value !== '') q.set(k, value)
  }
  return q
}

export async function AuditLogView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const held = permissionsOfUser(req.user)
  const query = queryOf(searchParams)
  const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0)
  let events: ModerationEventDto[] = []
  let total = 0
  let problem: string | null = null
  if (held.includes('content.moderate')) {
    try {
      const page = await listModerationEvents(req.payload, parseQuery(moderationEventFilters, query, { controlCharacters: false }), offset, PAGE)
      events = page.data
      total = page.pagination.total
    } catch (err) {
      if (!(err instanceof ApiError)) throw err
      problem = 'A filter is not valid: ' + JSON.stringify(err.details)
    }
  }
  const actors = held.includes('content.moderate')
    ? (await req.payload.find({ collection: 'users', depth: 0, limit: 500, sort: 'email', overrideAccess: true, select: { email: true } })).docs
    : []
  const link = (o: number) => {
    const q = new URLSearchParams(query)
    q.set('offset', String(o))
    return `/admin/audit?${q.toString()}`
  }
  return (
    <ConsolePage initPageResult={initPageResult} params={params} searchParams={searchParams} title="Audit log">
      {!held.includes('content.moderate') ? (
        <p>You do not have permission to read the audit log.</p>
      ) : (
        <>
          <form method="get" action="/admin/audit" className="audit-filters" style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'end', margin: '12px 0' }}>
            <label>
              Action
              <br />
              <select name="action" defaultValue={query.get('action') ?? ''}>
                <option value="">Any</option>
                {MODERATION_ACTIONS.map((a) => (
                  <option key={a} value={a}>{a}</option>
                ))}
              </select>
            </label>
            <label>
              Actor
              <br />
              <select name="actor" defaultValue={query.get('actor') ?? ''}>
                <option value="">Anyone</option>
                {actors.map((u) => (
                  <option key={u.id} value={String(u.id)}>{u.email}</option>
                ))}
              </select>
            </label>
            <label>
              Target (slug or id)
              <br />
              <input name="target" defaultValue={query.get('target') ?? ''} />
            </label>
            <label>
              From
              <br />
              <input type="date" name="from" defaultValue={query.get('from') ?? ''} />
            </label>
            <label>
              To
              <br />
              <input type="date" name="to" defaultValue={query.get('to') ?? ''} />
            </label>
            <button type="submit" className="btn btn--style-primary btn--size-small" style={{ margin: 0 }}>Filter</button>
            <a href="/admin/audit">Clear</a>
          </form>
          {problem && <p role="alert">{problem}</p>}
          <p className="audit-count">{total} event{total === 1 ? '' : 's'}</p>
          <table className="table audit-log" style={{ width: '100%' }}>
            <thead>
              <tr>
                <th>Time</th>
                <th>Actor</th>
                <th>Action</th>
                <th>Target</th>
                <th>Before → after</th>
                <th>Reason</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id} data-action={e.action} data-target={e.target.slug}>
                  <td>
                    <When iso={e.at} />
                  </td>
                  <td>{e.actor ? (e.actor.email ?? e.actor.id) : 'system'}</td>
                  <td>{e.action}</td>
                  <td>
                    <a href={targetHref(e)} title={e.target.slug}>{e.target.title ?? e.target.slug}</a> <span style={{ color: 'var(--theme-elevation-650)' }}>({e.target.collection})</span>
                  </td>
                  <td>
                    {e.stateBefore ?? '—'} → {e.stateAfter ?? '—'}
                  </td>
                  <td>{e.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p style={{ display: 'flex', gap: 16 }}>
            {offset > 0 && <a href={link(Math.max(0, offset - PAGE))}>← Newer</a>}
            {offset + events.length < total && <a href={link(offset + PAGE)}>Older →</a>}
          </p>
        </>
      )}
    </ConsolePage>
  )
}
