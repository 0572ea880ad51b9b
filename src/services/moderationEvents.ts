/**
 * Reads of the moderation audit trail (the engines write it, in the transaction of each
 * change): the filterable log (console /admin/audit, GET /api/v1/moderation/events) and
 * one item's history. Filters: action, actor (user id), target (slug or id), date range.
 */
import type { Payload, Where } from 'payload'

import type { ModerationEvent } from '../../payload-types'
import type { ModerationAction } from '../db/engine'
import type { Pagination } from '../platform/pagination'
import type { ModerationEventDto } from './dtos'
import { userNamesById } from './users'
import { DAY_MS } from '../platform/time'

/** The filters, validated (their query schema is endpoints/queries.ts's moderationEventFilters). */
export type ModerationEventFilters = {
  action?: ModerationAction
  actor?: string
  /** A slug or an id of the changed document. */
  target?: string
  /** Inclusive bounds, ISO dates or timestamps. */
  from?: string
  to?: string
}

export type { ModerationEventDto }

type EventDoc = ModerationEvent

const refId = (v: EventDoc['actor']): string | null => (v == null ? null : typeof v === 'object' ? String(v.id) : String(v))

function whereOf(f: ModerationEventFilters): Where {
  const and: Where[] = []
  if (f.action) and.push({ action: { equals: f.action } })
  if (f.actor) and.push({ actor: { equals: f.actor } })
  if (f.target) and.push({ or: [{ targetSlug: { equals: f.target } }, { targetId: { equals: f.target } }] })
  if (f.from) and.push({ at: { greater_than_equal: new Date(f.from).toISOString() } })
  // A bare date as the upper bound includes that whole day.
  if (f.to) {
    const end = /^\d{4}-\d{2}-\d{2}$/.test(f.to) ? new Date(Date.parse(f.to) + DAY_MS - 1) : new Date(f.to)
    and.push({ at: { less_than_equal: end.toISOString() } })
  }
  return and.length ? { and } : {}
}

/** What people call each kind of target: an item's title, a taxonomy node's label. */
const NAME_FIELD: Record<string, 'title' | 'label'> = { content: 'title', tags: 'label', surfaces: 'label', groups: 'label', channels: 'label', platforms: 'label', facets: 'label' }

/** The targets' titles as they are now, one read per kind of target on the page. */
async function titlesOf(payload: Payload, docs: EventDoc[]): Promise<Map<string, string>> {
  const byCollection = new Map<string, Set<string>>()
  for (const d of docs) if (NAME_FIELD[d.targetCollection]) byCollection.set(d.targetCollection, (byCollection.get(d.targetCollection) ?? new Set()).add(d.targetId))
  const out = new Map<string, string>()
  await Promise.all(
    [...byCollection].map(async ([collection, ids]) => {
      const field = NAME_FIELD[collection]!
      const found = await payload.find({
        collection: collection as 'content',
        where: { id: { in: [...ids] } },
        select: { [field]: true } as never,
        limit: ids.size,
        pagination: false,
        depth: 0,
        overrideAccess: true,
      })
      for (const doc of found.docs as unknown as { id: string | number; [k: string]: unknown }[]) {
        const name = doc[field]
        if (typeof name === 'string' && name) out.set(`${collection}:${doc.id}`, name)
      }
    }),
  )
  return out
}

async function actorsById(payload: Payload, ids: string[]): Promise<Map<string, ModerationEventDto['actor']>> {
  const names = await userNamesById(payload, ids)
  return new Map([...names].map(([id, n]) => [id, { id, ...n }]))
}

export async function listModerationEvents(
  payload: Payload,
  filters: ModerationEventFilters,
  offset: number,
  limit: number,
): Promise<{ data: ModerationEventDto[]; pagination: Pagination }> {
  if (limit === 0) {
    const { totalDocs } = await payload.count({ collection: 'moderation-events', where: whereOf(filters), overrideAccess: true })
    return { data: [], pagination: { offset, limit, total: totalDocs, hasMore: offset < totalDocs } }
  }
  // Payload pages by number: an aligned offset is one page, any other reads the rows before it too.
  const aligned = offset % limit === 0
  const res = await payload.find({
    collection: 'moderation-events',
    where: whereOf(filters),
    sort: '-at',
    depth: 0,
    overrideAccess: true,
    limit: aligned ? limit : offset + limit,
    page: aligned ? offset / limit + 1 : 1,
  })
  const docs = res.docs.slice(aligned ? 0 : offset, aligned ? limit : offset + limit)
  const [actors, titles] = await Promise.all([actorsById(payload, docs.map((d) => refId(d.actor)).filter((id): id is string => !!id)), titlesOf(payload, docs)])
  const data = docs.map((d): ModerationEventDto => {
    const actorId = refId(d.actor)
    return {
      id: String(d.id),
      action: d.action,
      actor: actorId ? (actors.get(actorId) ?? { id: actorId, email: null, username: null }) : null,
      target: { collection: d.targetCollection, id: d.targetId, slug: d.targetSlug, title: titles.get(`${d.targetCollection}:${d.targetId}`) ?? null },
      stateBefore: d.stateBefore ?? null,
      stateAfter: d.stateAfter ?? null,
      reason: d.reason ?? null,
      at: new Date(d.at).toISOString(),
    }
  })
  return { data, pagination: { offset, limit, total: res.totalDocs, hasMore: offset + data.length < res.totalDocs } }
}
