/**
 * The console dashboard's numbers, one call: each tile only for the permissions that may see
 * it. Pending count and oldest pending item; approvals and rejections per day over 30 days
 * (from the audit trail); top tags by approved usage; recent moderation activity.
 */
import type { Payload, Where } from 'payload'

import { engine } from '../db/engine'
import { listModerationEvents, type ModerationEventDto } from './moderationEvents'
import { DAY_MS } from '../platform/time'

export const CHART_DAYS = 30

export type DailyDecisions = { day: string; approved: number; rejected: number }
export type TopTag = { slug: string; label: string; usageCount: number }
export type DashboardData = {
  pending?: { count: number; oldestAt: string | null; oldestSlug: string | null }
  daily?: DailyDecisions[]
  topTags?: TopTag[]
  recent?: ModerationEventDto[]
  /** For those who shape the taxonomy: how many of each kind, and whether they may edit the tree. */
  taxonomy?: TaxonomySummary
}

export type TaxonomySummary = { surfaces: number; groups: number; channels: number; platforms: number; tags: number; editsTree: boolean; managesTags: boolean }

async function taxonomySummary(payload: Payload, editsTree: boolean, managesTags: boolean): Promise<TaxonomySummary> {
  const count = (collection: 'surfaces' | 'groups' | 'channels' | 'platforms' | 'tags') => payload.count({ collection, overrideAccess: true }).then((r) => r.totalDocs)
  const [surfaces, groups, channels, platforms, tags] = await Promise.all([count('surfaces'), count('groups'), count('channels'), count('platforms'), count('tags')])
  return { surfaces, groups, channels, platforms, tags, editsTree, managesTags }
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10)

/** The last CHART_DAYS UTC days, oldest first, with zero days included. */
export async function decisionsPerDay(payload: Payload, now: Date): Promise<DailyDecisions[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const start = new Date(today - (CHART_DAYS - 1) * DAY_MS)
  const days = new Map<string, DailyDecisions>()
  for (let i = 0; i < CHART_DAYS; i++) {
    const day = dayOf(new Date(start.getTime() + i * DAY_MS))
    days.set(day, { day, approved: 0, rejected: 0 })
  }
  const events = await payload.find({
    collection: 'moderation-events',
    where: { and: [{ action: { in: ['approve', 'reject'] } }, { at: { greater_than_equal: start.toISOString() } }] },
    select: { action: true, at: true },
    pagination: false,
    depth: 0,
    overrideAccess: true,
  })
  for (const e of events.docs) {
    const bucket = days.get(dayOf(new Date(e.at)))
    if (!bucket) continue
    if (e.action === 'approve') bucket.approved += 1
    else bucket.rejected += 1
  }
  return [...days.values()]
}

export async function topTags(payload: Payload, limit = 8): Promise<TopTag[]> {
  const store = engine().contentStore(payload)
  const { rows } = await store.listTags({ offset: 0, limit: 1000 })
  const usage = await store.tagUsage(rows.map((r) => r.slug))
  return rows
    .map((r) => ({ slug: r.slug, label: r.label, usageCount: usage.get(r.slug) ?? 0 }))
    .filter((t) => t.usageCount > 0)
    .sort((a, b) => b.usageCount - a.usageCount || a.slug.localeCompare(b.slug))
    .slice(0, limit)
}

export async function pendingSummary(payload: Payload): Promise<NonNullable<DashboardData['pending']>> {
  const where: Where = { and: [{ status: { equals: 'pending' } }, { isActive: { equals: true } }] }
  const [count, oldest] = await Promise.all([
    payload.count({ collection: 'content', where, overrideAccess: true }),
    payload.find({ collection: 'content', where, sort: 'createdAt', limit: 1, depth: 0, overrideAccess: true, select: { slug: true, createdAt: true } }),
  ])
  const first = oldest.docs[0]
  return { count: count.totalDocs, oldestAt: first?.createdAt ?? null, oldestSlug: first?.slug ?? null }
}

export async function dashboardData(payload: Payload, permissions: readonly string[], now = new Date()): Promise<DashboardData> {
  const moderates = permissions.includes('content.moderate')
  const seesTags = moderates || permissions.includes('tag.manage')
  const editsTree = permissions.includes('catalog.manage')
  const shapes = editsTree || permissions.includes('tag.manage')
  const [pending, daily, tags, recent, taxonomy] = await Promise.all([
    moderates ? pendingSummary(payload) : undefined,
    moderates ? decisionsPerDay(payload, now) : undefined,
    seesTags ? topTags(payload) : undefined,
    moderates ? listModerationEvents(payload, {}, 0, 8).then((r) => r.data) : undefined,
    shapes ? taxonomySummary(payload, editsTree, permissions.includes('tag.manage')) : undefined,
  ])
  const out: DashboardData = {}
  if (pending) out.pending = pending
  if (daily) out.daily = daily
  if (tags) out.topTags = tags
  if (recent) out.recent = recent
  if (taxonomy) out.taxonomy = taxonomy
  return out
}
