/**
 * Content reads: the list (GET /content), one item and its related items. Filters are
 * resolved to ids through the cached taxonomy, then the engine's content store runs one
 * indexed query; rows become ContentDto with slugs from the same taxonomy. The list and the
 * item are also kept as serialized answers (src/platform/serializedAnswer), so a repeated read is
 * written from bytes without a query or a serialization.
 */
import type { Payload } from 'payload'

import { hasPermissions, type AuthUser } from '../../access/guards'
import { type Pagination, paginationOf } from '../platform/pagination'
import { CONTENT_FIELD_NAMES, CONTENT_FIELDS, type ContentField, type ContentFieldName, type ContentFields } from '../db/contentRecord'
import { engine, type ContentFilter, type ContentRecord, type Domain } from '../db/engine'
import { perDatabase, VersionedCache } from '../db/freshness'
import { getConfig } from '../platform/config'
import { cacheCounter } from '../platform/metrics'
import { ApiError, forbidden } from '../platform/errors'
import { answerBytes, answerSerializer, type SerializedAnswer } from '../platform/serializedAnswer'
import { servedUrl } from '../platform/urlPolicy'
import { getTaxonomy, type Taxonomy } from './catalog'
import { contentRows as rowFreshness, domainsVersion, domainVersion, type RowStamp } from './domainVersions'
import { PERIODS, type ListParams } from './contentQuery'
import type { ContentDto } from './dtos'

/** The API's content shape (src/services/dtos): the stored record with taxonomy ids turned into slugs (or null). */
export type { ContentDto }

export const RELATED_LIMIT = 10

/** The fields the answer maps itself (`dto: 'own'` in ../db/contentRecord). */
const OWN_FIELDS: { [N in OwnField]: (r: ContentRecord, t: Taxonomy) => ContentDto[N] } = {
  // Slugs a tag rename in steps hides are left out.
  tagSlugs: (r, t) => (t.hiddenTagSlugs.size === 0 ? r.tagSlugs : r.tagSlugs.filter((s) => !t.hiddenTagSlugs.has(s))),
  thumbnailUrl: (r) => (r.thumbnailUrl ? servedUrl(r.thumbnailUrl, getConfig().branding.publicUrl) : null),
}
type OwnField = { [N in ContentFieldName]: ContentFields[N]['dto'] extends 'own' ? N : never }[ContentFieldName]

/** Relationships answered as slugs (`dto: { slug }`), by the taxonomy's id -> slug map of each. */
type SlugName = Extract<ContentFields[ContentFieldName]['dto'], { slug: string }>['slug']
const SLUG_MAPS = { group: 'groupSlugById', channel: 'channelSlugById', platform: 'platformSlugById' } as const satisfies Record<
  SlugName,
  keyof Taxonomy
>

/** The stored record as the API answers it (ContentDto, derived from the record's definition). */
export function toContentDto(r: ContentRecord, t: Taxonomy): ContentDto {
  const dto: Record<string, unknown> = {}
  for (const name of CONTENT_FIELD_NAMES) {
    const as: ContentField['dto'] = CONTENT_FIELDS[name].dto
    if (as === 'same') dto[name] = r[name]
    else if (as === 'own') dto[name] = OWN_FIELDS[name as OwnField](r, t)
    else {
      const id = r[name] as string | null
      dto[as.slug] = id ? (t[SLUG_MAPS[as.slug as SlugName]].get(id) ?? null) : null
    }
  }
  return dto as ContentDto
}

const canModerate = (user: AuthUser | null) => hasPermissions(user, ['content.moderate'])
const canSeeInactive = (user: AuthUser | null) => hasPermissions(user, ['content.delete'])

/** Slug filters -> ids; null means "matches nothing" (an unknown slug is an empty result, not an error). */
function resolveFilters(p: ListParams, t: Taxonomy): Pick<ContentFilter, 'groupIds' | 'channelIds' | 'platformIds'> | null {
  const out: Pick<ContentFilter, 'groupIds' | 'channelIds' | 'platformIds'> = {}
  if (p.group !== undefined) {
    const ids = t.groupIdsBySlug.get(p.group)
    if (!ids?.length) return null
    out.groupIds = ids
    if (p.channel !== undefined) {
      const channelIds = ids.map((g) => t.channelIdByGroupAndSlug.get(`${g}/${p.channel}`)).filter((c): c is string => !!c)
      if (channelIds.length === 0) return null
      out.channelIds = channelIds
    }
  }
  if (p.platforms) {
    const ids = p.platforms.map((s) => t.platformIdBySlug.get(s)).filter((id): id is string => !!id)
    if (ids.length === 0) return null
    out.platformIds = ids
  }
  return out
}

/** The period's start, in whole minutes: the window moves once a minute, so repeated requests share cached pages and totals. */
function approvedSinceOf(p: ListParams, now: Date): string | undefined {
  const hours = PERIODS[p.period]
  return hours ? new Date(Math.floor(now.getTime() / 60_000) * 60_000 - hours * 3_600_000).toISOString() : undefined
}

type ContentPageOf = { records: ContentRecord[]; taxonomy: Taxonomy; pagination: Pagination; estimated: boolean }

export async function listContent(
  payload: Payload,
  p: ListParams,
  user: AuthUser | null,
  now = new Date(),
): Promise<{ data: ContentDto[]; pagination: Pagination; estimated: boolean }> {
  const { records, taxonomy, pagination, estimated } = await contentPage(payload, p, user, now)
  return { data: records.map((r) => toContentDto(r, taxonomy)), pagination, estimated }
}

/** listContent's page as records, with the taxonomy that turns them into answers. */
async function contentPage(payload: Payload, p: ListParams, user: AuthUser | null, now: Date): Promise<ContentPageOf> {
  if (p.status !== 'approved' && !canModerate(user)) {
    throw forbidden('Listing content other than approved needs the content.moderate permission.')
  }
  const taxonomy = await getTaxonomy(payload)
  const resolved = resolveFilters(p, taxonomy)
  const empty = { records: [], taxonomy, pagination: { offset: p.offset, limit: p.limit, total: 0, hasMore: false }, estimated: false }
  // A search with no usable word (only punctuation) matches nothing.
  if (!resolved || (p.terms && p.terms.terms.length === 0 && p.terms.shortTerms.length === 0)) return empty

  const page = await engine().contentStore(payload).listContent({
    statuses: p.status === 'all' ? 'all' : [p.status],
    includeInactive: canSeeInactive(user),
    text: p.terms,
    tags: p.tags,
    ...resolved,
    ...(p.urlKey !== undefined ? { urlKey: p.urlKey } : {}),
    ...(p.values ? { values: p.values } : {}),
    submittedBy: p.submittedBy,
    createdBefore: p.createdBefore,
    approvedSince: approvedSinceOf(p, now),
    sort: p.sort,
    offset: p.offset,
    limit: p.limit,
    estimate: p.estimate,
  })
  return { records: page.rows, taxonomy, pagination: paginationOf(p, page.rows.length, page.total), estimated: page.estimated }
}

/** Visible: approved (or the caller moderates) and active (or the caller may soft-delete). */
function visibleTo(r: ContentRecord, user: AuthUser | null): boolean {
  return (r.status === 'approved' || canModerate(user)) && (r.isActive || canSeeInactive(user))
}

async function visibleRecord(payload: Payload, slug: string, user: AuthUser | null): Promise<ContentRecord> {
  const record = await engine().contentStore(payload).contentBySlug(slug)
  if (!record || !visibleTo(record, user)) {
    throw new ApiError(404, 'content.not_found', 'No visible content has this slug.')
  }
  return record
}

export async function getContent(payload: Payload, slug: string, user: AuthUser | null): Promise<ContentDto> {
  const [record, taxonomy] = await Promise.all([visibleRecord(payload, slug, user), getTaxonomy(payload)])
  return toContentDto(record, taxonomy)
}

/** Up to 10 approved, active items ranked 2 × shared channel + shared tags, then newest, then id. */
export async function relatedContent(payload: Payload, slug: string, user: AuthUser | null): Promise<ContentDto[]> {
  const [record, taxonomy] = await Promise.all([visibleRecord(payload, slug, user), getTaxonomy(payload)])
  // Ranked by the tags the item shows (a slug hidden while a rename runs would count twice).
  const hidden = taxonomy.hiddenTagSlugs
  const tagSlugs = hidden.size === 0 ? record.tagSlugs : record.tagSlugs.filter((s) => !hidden.has(s))
  if (!record.channelId && tagSlugs.length === 0) return []
  const rows = await engine().contentStore(payload).relatedContent({ ...record, tagSlugs }, RELATED_LIMIT)
  return rows.map((r) => toContentDto(r, taxonomy))
}

/**
 * Two views, each with its own caches, keyed on the generations its rows can change with (a
 * row's group/channel/platform slugs are taxonomy): what the public sees (approved, active rows)
 * follows the public content generation, so a pending submission leaves it cached; a view that
 * shows more (pending, rejected or deleted rows) follows every content write
 * (src/db/freshness/versionDomains). One cache per view: a cache keeps one version at a time.
 */
const PUBLIC_DOMAINS: readonly Domain[] = ['content', 'taxonomy']
const ALL_DOMAINS: readonly Domain[] = ['all_content', 'taxonomy']

/** What the caller may see beyond approved, active items: part of every answer's key. */
const visibilityKey = (user: AuthUser | null) => `${canModerate(user) ? 'moderate' : ''}/${canSeeInactive(user) ? 'inactive' : ''}`

export type ListAnswer = { answer: SerializedAnswer; estimated: boolean }

/** A cached answer, stamped with the rows it shows (src/db/freshness/generations). */
type Kept<T> = T & RowStamp

/** A list request's cache key text, made once per params object (the edge hands a hot query's same object again). */
const paramsKeys = new WeakMap<ListParams, string>()
function paramsKey(p: ListParams): string {
  let key = paramsKeys.get(p)
  if (key === undefined) paramsKeys.set(p, (key = JSON.stringify(p)))
  return key
}

function viewCaches(view: 'public' | 'all') {
  const name = (cache: string) => (view === 'public' ? cache : `${cache}_all`)
  return {
    domains: view === 'public' ? PUBLIC_DOMAINS : ALL_DOMAINS,
    /** Serialized list pages, by query and visibility; about 900 default pages fit in the byte bound. */
    lists: new VersionedCache<Kept<ListAnswer>>(name('content_answers'), 1_000, 16_000_000, (a) => answerBytes(a.answer)),
    /**
     * The same for text searches, kept from a query's second ask: most searches are asked once,
     * and keeping each one cost more (in garbage collection) than it saved (docs/benchmarks.md, *Measurements behind the code*).
     */
    searches: new VersionedCache<Kept<ListAnswer>>(name('search_answers'), 1_000, 16_000_000, (a) => answerBytes(a.answer), { keepOnSecondAsk: true }),
    /**
     * Serialized items, by slug and visibility (an invisible one is a 404, never kept), keyed on
     * taxonomy alone: an item's answer is its row's, read again once that row is marked, so
     * another item's approval or edit leaves it cached.
     */
    items: new VersionedCache<Kept<{ answer: SerializedAnswer }>>(name('content_item_answers'), 5_000, 8_000_000, (a) => answerBytes(a.answer)),
  }
}
/** Each database's own caches (kept values never cross Payload instances). */
const viewsOf = perDatabase(() => ({ public: viewCaches('public'), all: viewCaches('all') }))

/** GET /content's answer: listContent's page serialized once per query, visibility and content and taxonomy versions. */
export async function listContentAnswer(payload: Payload, p: ListParams, user: AuthUser | null, now = new Date()): Promise<ListAnswer> {
  // Approved, active rows only: the public's view, whoever asks.
  const views = viewsOf(payload.db)
  const view = p.status === 'approved' && !canSeeInactive(user) ? views.public : views.all
  const version = domainsVersion(payload, view.domains)
  // A caller without the permission for `status` has no entry to hit: listContent refuses before one is kept.
  const key = `${visibilityKey(user)}\u0000${approvedSinceOf(p, now) ?? ''}\u0000${paramsKey(p)}`
  const rows = rowFreshness(payload)
  const clock = rows.clock()
  const kept = await (p.q === undefined ? view.lists : view.searches).get(
    version,
    key,
    async () => {
      const { records, taxonomy, pagination, estimated } = await contentPage(payload, p, user, now)
      const answer = answerSerializer.serialize(records.map((r) => toContentDto(r, taxonomy)), pagination)
      return { answer, estimated, ids: records.map((r) => r.id), clock }
    },
    (kept) => rows.fresh(kept),
  )
  return { answer: kept.answer, estimated: kept.estimated }
}

/** GET /content/:slug's answer, serialized once per slug, visibility and taxonomy version, until its row changes. */
export async function contentAnswer(payload: Payload, slug: string, user: AuthUser | null): Promise<SerializedAnswer> {
  const views = viewsOf(payload.db)
  const view = canModerate(user) || canSeeInactive(user) ? views.all : views.public
  const version = domainVersion(payload, 'taxonomy')
  const rows = rowFreshness(payload)
  const clock = rows.clock()
  const kept = await view.items.get(
    version,
    `${visibilityKey(user)}\u0000${slug}`,
    async () => {
      const dto = await getContent(payload, slug, user)
      return { answer: answerSerializer.serialize(dto), ids: [dto.id], clock }
    },
    (kept) => rows.fresh(kept),
  )
  return kept.answer
}
