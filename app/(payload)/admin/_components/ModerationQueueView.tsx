/**
 * The moderation queue (/admin/moderation): pending, active submissions, filtered by group,
 * platform, tag, submitter, age and text, oldest or newest first, paged on the server through
 * the content service (src/services/moderationQueue.ts). The list, its keyboard, preview and
 * actions are client-side (ModerationList); the actions call the same services as the API.
 */
import type { AdminViewServerProps } from 'payload'
import React from 'react'

import { permissionsOfUser } from '../../../../access/userPermissions'
import { moderationQueue, QUEUE_AGES, queueFilterOptions, queueFiltersFrom, type QueuePage } from '../../../../src/services/moderationQueue'
import { ConsolePage } from './ConsolePage'
import { ModerationList } from './ModerationList'

export async function ModerationQueueView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const held = permissionsOfUser(req.user)
  const canRead = held.includes('content.moderate')
  const filters = queueFiltersFrom((searchParams ?? {}) as Record<string, string | string[] | undefined>)
  let page: QueuePage = { items: [], total: 0, offset: 0, limit: filters.limit }
  let options: Awaited<ReturnType<typeof queueFilterOptions>> = { groups: [], platforms: [], tags: [] }
  if (canRead) {
    ;[page, options] = await Promise.all([
      moderationQueue(req.payload, filters, { id: String(req.user!.id), permissions: held }),
      queueFilterOptions(req.payload),
    ])
  }
  // The filters as a query (without paging): the links' and the queue's status asks.
  const filterQuery = new URLSearchParams()
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && k !== 'limit' && k !== 'offset' && !(k === 'sort' && v === 'oldest')) filterQuery.set(k, String(v))
  const link = (offset: number) => {
    const q = new URLSearchParams(filterQuery)
    q.set('offset', String(offset))
    return `/admin/moderation?${q.toString()}`
  }
  const select = (name: string, label: string, value: string | undefined, choices: { slug: string; label: string }[]) => (
    <label>
      {label}
      <br />
      <select name={name} defaultValue={value ?? ''}>
        <option value="">Any</option>
        {choices.map((c) => (
          <option key={c.slug} value={c.slug}>{c.label}</option>
        ))}
      </select>
    </label>
  )
  return (
    <ConsolePage initPageResult={initPageResult} params={params} searchParams={searchParams} title="Moderation queue">
      {canRead ? (
        <>
          <form method="get" action="/admin/moderation" className="queue-filters">
            <label>
              Search
              <br />
              <input name="q" type="search" defaultValue={filters.q ?? ''} placeholder="Title or description" />
            </label>
            {select('group', 'Group', filters.group, options.groups)}
            {select('platform', 'Platform', filters.platform, options.platforms)}
            {select('tag', 'Tag', filters.tag, options.tags)}
            <label>
              Submitter
              <br />
              <input name="submitter" defaultValue={filters.submitter ?? ''} placeholder="email or username" />
            </label>
            <label>
              Waiting
              <br />
              <select name="age" defaultValue={filters.age ?? ''}>
                <option value="">Any time</option>
                {Object.keys(QUEUE_AGES).map((a) => (
                  <option key={a} value={a}>at least {a}</option>
                ))}
              </select>
            </label>
            <label>
              Order
              <br />
              <select name="sort" defaultValue={filters.sort}>
                <option value="oldest">Oldest first</option>
                <option value="newest">Newest first</option>
              </select>
            </label>
            <button type="submit" className="btn btn--style-primary btn--size-small" style={{ margin: 0 }}>Apply</button>
            <a href="/admin/moderation">Clear</a>
          </form>
          <ModerationList rows={page.items} total={page.total} offset={page.offset} canApprove={held.includes('content.approve')} filters={filterQuery.toString()} />
          <p style={{ display: 'flex', gap: 16 }}>
            {page.offset > 0 && <a href={link(Math.max(0, page.offset - page.limit))} className="queue-prev">← Previous</a>}
            {page.offset + page.items.length < page.total && <a href={link(page.offset + page.limit)} className="queue-next">Next →</a>}
          </p>
        </>
      ) : (
        <p>You do not have permission to review submissions.</p>
      )}
    </ConsolePage>
  )
}
