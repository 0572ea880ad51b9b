/**
 * Tag writes: create, update (label, facet) and rename. Rename follows the spec's four
 * rules: the new slug is checked (pattern, reserved, taken: merges are rejected), every
 * content item's tagSlugs follows in the same transaction as the tag, an audit record is
 * written in that transaction, and the new slug is returned.
 */
import type { Payload } from 'payload'

import { engine } from '../db/engine'
import { ApiError, validationFailed } from '../errors'
import { assertSlug, suggestSlug } from '../slug'
import { getTaxonomy } from './catalog'
import { getTag, type TagDto } from './tags'
import { workflowFieldsGuard } from './workflowGuard'

export type NewTagInput = { label: string; facet: string; slug?: string }
export type TagPatch = { label?: string; facet?: string }

const slugConflict = (slug: string) =>
  new ApiError(409, 'slug.conflict', `The slug "${slug}" is already in use.`, { slug, entity: 'tag' })

/** Payload reports a unique-index violation as a ValidationError on the field. */
function isUniqueViolation(err: unknown, field: string): boolean {
  const errors = (err as { data?: { errors?: { path?: string }[] } })?.data?.errors
  return Array.isArray(errors) && errors.some((e) => e.path === field)
}

async function facetId(payload: Payload, key: string): Promise<string> {
  const id = (await getTaxonomy(payload)).facetIdByKey.get(key)
  if (!id) throw validationFailed([{ field: 'facet', constraint: 'exists', value: key }])
  return id
}

export async function createTag(payload: Payload, input: NewTagInput): Promise<TagDto> {
  const slug = assertSlug(input.slug ?? suggestSlug(input.label))
  const facet = await facetId(payload, input.facet)
  try {
    await engine().withTransientRetry(() => payload.create({ collection: 'tags', data: { slug, label: input.label, facet }, overrideAccess: true }))
  } catch (err) {
    if (isUniqueViolation(err, 'slug')) throw slugConflict(slug)
    throw err
  }
  return getTag(payload, slug)
}

export async function updateTag(payload: Payload, slug: string, patch: TagPatch): Promise<TagDto> {
  const found = await payload.find({ collection: 'tags', where: { slug: { equals: slug } }, limit: 1, depth: 0, overrideAccess: true })
  const tag = found.docs[0]
  if (!tag) throw new ApiError(404, 'tag.not_found', 'No tag has this slug.')
  const data: Record<string, unknown> = {}
  if (patch.label !== undefined) data.label = patch.label
  if (patch.facet !== undefined) data.facet = await facetId(payload, patch.facet)
  if (Object.keys(data).length > 0) {
    await engine().withTransientRetry(() => payload.update({ collection: 'tags', id: tag.id, data, overrideAccess: true }))
  }
  return getTag(payload, slug)
}

export type RenameOptions = { actorId: string | null; afterContentUpdate?: () => void }

export async function renameTag(
  payload: Payload,
  slug: string,
  newSlug: string,
  { actorId, afterContentUpdate }: RenameOptions,
): Promise<{ slug: string; contentCount: number }> {
  assertSlug(newSlug, 'newSlug')
  if (newSlug === slug) throw slugConflict(newSlug)
  const result = await engine().renameTag(payload, { oldSlug: slug, newSlug, actorId, at: new Date(), afterContentUpdate })
  if (result.outcome === 'not_found') throw new ApiError(404, 'tag.not_found', 'No tag has this slug.')
  if (result.outcome === 'taken') throw slugConflict(newSlug)
  // Caches need nothing: the rename moved the taxonomy and content counters in its transaction.
  return { slug: newSlug, contentCount: result.contentCount }
}

/** How many items a rename would touch (the console shows it before asking). */
export async function renameImpact(payload: Payload, slug: string): Promise<number> {
  const res = await payload.count({ collection: 'content', where: { tagSlugs: { contains: slug } }, overrideAccess: true })
  return res.totalDocs
}

/** The tags collection hook: a slug changes only through renameTag (content follows, audit written). */
export const tagSlugGuard = workflowFieldsGuard('tags', [
  { name: 'slug', use: 'Rename (the Rename action, or POST /api/v1/tags/<slug>/rename)' },
])
