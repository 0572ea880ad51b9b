/**
 * The console's moderation queue: pending, active items through the content service's list
 * (one indexed, paged query: fast with thousands pending), filtered by group, platform, tag,
 * submitter, age and text, oldest or newest first; with each submitter's record.
 */
import type { Payload } from 'payload'

import type { AuthUser } from '../../access/guards'
import { engine } from '../db/engine'
import { listContent, type ContentDto } from './content'
import { splitTerms } from './contentQuery'
import { userNamesById } from './users'
import { urlKeyOf } from '../platform/urlNormalize'
import { DAY_MS } from '../platform/time'

export const QUEUE_AGES = { '1d': 1, '3d': 3, '7d': 7, '30d': 30 } as const
export type QueueAge = keyof typeof QUEUE_AGES
export const QUEUE_PAGE_SIZE = 25

export type QueueFilters = {
  q?: string
  group?: string
  platform?: string
  tag?: string
  /** A submitter's email or username. */
  submitter?: string
  /** Waiting at least this long. */
  age?: QueueAge
  sort: 'oldest' | 'newest'
  offset: number
  limit: number
}

export type SubmitterRecord = { id: string; email: string | null; username: string | null; approved: number; rejected: number }
/** Another item stored with the same normalised URL (copies from before duplicate detection). */
export type SameUrlItem = { slug: string; status: string }
export type QueueItem = ContentDto & { submitter: SubmitterRecord | null; sameUrl: SameUrlItem[] }
export type QueuePage = { items: QueueItem[]; total: number; offset: number; limit: number }

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)?.trim() || undefined

/** The view's search parameters -> filters; anything malformed is ignored (no filter). */
export function queueFiltersFrom(params: Record<string, string | string[] | undefined>): QueueFilters {
  const slug = (name: string) => {
    const v = one(params[name])
    return v && SLUG.test(v) ? v : undefined
  }
  const q = one(params.q)
  const age = one(params.age)
  const offset = Number(one(params.offset) ?? 0)
  return {
    q: q && [...q].length >= 2 ? q.slice(0, 200) : undefined,
    group: slug('group'),
    platform: slug('platform'),
    tag: slug('tag'),
    submitter: one(params.submitter)?.slice(0, 200),
    age: age && age in QUEUE_AGES ? (age as QueueAge) : undefined,
    sort: one(params.sort) === 'newest' ? 'newest' : 'oldest',
    offset: Number.isInteger(offset) && offset >= 0 && offset <= 100_000 ? offset : 0,
    limit: QUEUE_PAGE_SIZE,
  }
}

async function userIdFor(payload: Payload, who: string): Promise<string | null> {
  const field = who.includes('@') ? 'email' : 'username'
  const res = await payload.find({ collection: 'users', where: { [field]: { equals: who.toLowerCase() } }, limit: 1, depth: 0, overrideAccess: true })
  return res.docs[0] ? String(res.docs[0].id) : null
}

/** Approved and rejected counts of each submitter (two indexed counts each). */
export async function submitterRecords(payload: Payload, ids: string[]): Promise<Map<string, SubmitterRecord>> {
  const unique = [...new Set(ids)]
  const out = new Map<string, SubmitterRecord>()
  const byId = await userNamesById(payload, unique)
  await Promise.all(
    unique.map(async (id) => {
      const count = async (status: string) =>
        (await payload.count({ collection: 'content', where: { submittedBy: { equals: id }, status: { equals: status } }, overrideAccess: true })).totalDocs
      const [approved, rejected] = await Promise.all([count('approved'), count('rejected')])
      const u = byId.get(id)
      out.set(id, { id, email: u?.email ?? null, username: u?.username ?? null, approved, rejected })
    }),
  )
  return out
}

export async function moderationQueue(payload: Payload, f: QueueFilters, user: AuthUser, now = new Date()): Promise<QueuePage> {
  const empty: QueuePage = { items: [], total: 0, offset: f.offset, limit: f.limit }
  let submittedBy: string | undefined
  if (f.submitter) {
    submittedBy = (await userIdFor(payload, f.submitter)) ?? undefined
    if (!submittedBy) return empty
  }
  const { data, pagination } = await listContent(
    payload,
    {
      q: f.q,
      terms: f.q ? splitTerms(f.q) : undefined,
      tags: f.tag ? [f.tag] : undefined,
      group: f.group,
      platforms: f.platform ? [f.platform] : undefined,
      period: 'all',
      sort: f.sort === 'newest' ? 'submittedNewest' : 'submittedOldest',
      status: 'pending',
      offset: f.offset,
      limit: f.limit,
      estimate: false,
      submittedBy,
      createdBefore: f.age ? new Date(now.getTime() - QUEUE_AGES[f.age] * DAY_MS).toISOString() : undefined,
    },
    // The queue shows active items only, whatever else the moderator may see.
    { ...user, permissions: user.permissions.filter((p) => p !== 'content.delete') },
  )
  const [records, sameUrl] = await Promise.all([
    submitterRecords(payload, data.map((d) => d.submittedBy).filter((id): id is string => !!id)),
    itemsSharingUrls(payload, data),
  ])
  return {
    items: data.map((d) => ({
      ...d,
      submitter: d.submittedBy ? (records.get(d.submittedBy) ?? null) : null,
      sameUrl: (sameUrl.get(urlKeyOf(d.url)) ?? []).filter((o) => o.slug !== d.slug),
    })),
    total: pagination.total,
    offset: f.offset,
    limit: f.limit,
  }
}

/**
 * The other items holding each page item's normalised URL (one indexed query on urlKey):
 * new duplicates are refused at submit, but copies stored before that rule keep their URL.
 */
async function itemsSharingUrls(payload: Payload, items: ContentDto[]): Promise<Map<string, SameUrlItem[]>> {
  const out = new Map<string, SameUrlItem[]>()
  const keys = [...new Set(items.map((d) => urlKeyOf(d.url)))]
  if (keys.length === 0) return out
  const res = await payload.find({
    collection: 'content',
    where: { urlKey: { in: keys } },
    pagination: false,
    depth: 0,
    overrideAccess: true,
    select: { slug: true, status: true, urlKey: true },
  })
  for (const d of res.docs) {
    if (!d.urlKey) continue
    const list = out.get(d.urlKey) ?? []
    list.push({ slug: d.slug, status: d.status })
    out.set(d.urlKey, list)
  }
  return out
}

/** The filter choices: groups, platforms and tags as slug and label. */
export async function queueFilterOptions(payload: Payload) {
  const opts = async (collection: 'groups' | 'platforms') => {
    const res = await payload.find({ collection, depth: 0, pagination: false, overrideAccess: true, sort: 'displayOrder', select: { slug: true, label: true } })
    const seen = new Map<string, string>()
    for (const d of res.docs) if (!seen.has(d.slug)) seen.set(d.slug, d.label)
    return [...seen].map(([slug, label]) => ({ slug, label }))
  }
  const tags = await engine().contentStore(payload).listTags({ offset: 0, limit: 500 })
  return {
    groups: await opts('groups'),
    platforms: await opts('platforms'),
    tags: tags.rows.map((t) => ({ slug: t.slug, label: t.label })),
  }
}
