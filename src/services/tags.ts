/** Tag reads: the paginated list (facet, prefix q, sorted by label) and one tag, with usage counts. */
import type { Payload } from 'payload'

import { type Page, type Pagination, paginationOf } from '../platform/pagination'
import { engine, type TagRecord } from '../db/engine'
import { ApiError } from '../platform/errors'
import { getTaxonomy, type Taxonomy } from './catalog'
import type { TagDto } from './dtos'

export type { TagDto }

export type TagListParams = Page & { facet?: string; q?: string }

const toDto = (t: TagRecord, taxonomy: Taxonomy, usage: Map<string, number>): TagDto => ({
  slug: t.slug,
  label: t.label,
  facet: t.facetId ? (taxonomy.facetKeyById.get(t.facetId) ?? null) : null,
  usageCount: usage.get(t.slug) ?? 0,
})

export async function listTags(payload: Payload, p: TagListParams): Promise<{ data: TagDto[]; pagination: Pagination }> {
  const taxonomy = await getTaxonomy(payload)
  let facetIds: string[] | undefined
  if (p.facet !== undefined) {
    const id = taxonomy.facetIdByKey.get(p.facet)
    // An unknown facet holds no tags: an empty page, not an error.
    if (!id) return { data: [], pagination: paginationOf(p, 0, 0) }
    facetIds = [id]
  }
  const store = engine().contentStore(payload)
  const { rows, total } = await store.listTags({ facetIds, prefix: p.q, offset: p.offset, limit: p.limit })
  const usage = await store.tagUsage(rows.map((r) => r.slug))
  return {
    data: rows.map((r) => toDto(r, taxonomy, usage)),
    pagination: paginationOf(p, rows.length, total),
  }
}

export async function getTag(payload: Payload, slug: string): Promise<TagDto> {
  return (await getVersionedTag(payload, slug)).tag
}

/** A tag and its stored version (`updatedAt`: the API's ETag). */
export type VersionedTag = { tag: TagDto; version: string }

export async function getVersionedTag(payload: Payload, slug: string): Promise<VersionedTag> {
  const store = engine().contentStore(payload)
  const tag = await store.tagBySlug(slug)
  if (!tag) throw new ApiError(404, 'tag.not_found', 'No tag has this slug.')
  const [usage, taxonomy] = await Promise.all([store.tagUsage([slug]), getTaxonomy(payload)])
  return { tag: toDto(tag, taxonomy, usage), version: tag.updatedAt }
}
