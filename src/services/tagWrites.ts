/**
 * Tag writes: create, update (label, facet) and rename. Rename follows the spec's four
 * rules: the new slug is checked (pattern, reserved, taken: merges are rejected), every
 * content item's tagSlugs follows in the same transaction as the tag, an audit record is
 * written in that transaction, and the new slug is returned.
 */
import type { Payload } from 'payload'

import { ApiError, validationFailed } from '../platform/errors'
import { assertSlug, chooseSlug } from '../platform/slug'
import { getTaxonomy } from './catalog'
import { assertSlugFree, claimingWrite, isSlugHeld, slugConflict, slugHolder } from './slugClaims'
import { getTag, getVersionedTag, type TagDto, type VersionedTag } from './tags'
import { assertVersion, conditionalContext, type IfMatch } from './recordVersions'
import type { NewTagInput, TagPatch } from './requestBodies'
import type { WorkflowField } from './workflowGuard'
import { payloadWrite } from '../db/payloadWrite'
import { renameTag as applyTagRename } from '../db/workflow'

export type { NewTagInput, TagPatch }


/** Which tag a rename means: the API addresses it by slug, the console by id. */
export type TagRef = { slug: string } | { id: string }

const tagNotFound = () => new ApiError(404, 'tag.not_found', 'No tag has this slug.')

/** The tag's slug (content holds tags by slug); 404 `tag.not_found`. */
async function slugOf(payload: Payload, ref: TagRef): Promise<string> {
  if ('slug' in ref) return ref.slug
  const found = await payload.find({ collection: 'tags', where: { id: { equals: ref.id } }, limit: 1, depth: 0, overrideAccess: true })
  const tag = found.docs[0]
  if (!tag) throw new ApiError(404, 'tag.not_found', 'No tag has this id.')
  return String(tag.slug)
}

async function facetId(payload: Payload, key: string): Promise<string> {
  const id = (await getTaxonomy(payload)).facetIdByKey.get(key)
  if (!id) throw validationFailed([{ field: 'facet', constraint: 'exists', value: key }])
  return id
}

/** A new tag; without a slug it takes the default derived from its label (src/platform/slug.ts). */
export async function createTag(payload: Payload, input: NewTagInput): Promise<TagDto> {
  const slug = await chooseSlug({
    explicit: input.slug,
    value: input.label,
    from: 'label',
    entity: 'tag',
    // Held by a tag, an item or a surface: slugs are global (./slugClaims).
    isTaken: (candidate) => isSlugHeld(payload, candidate),
  })
  if (input.slug !== undefined) await assertSlugFree(payload, slug)
  const facet = await facetId(payload, input.facet)
  await claimingWrite(payload, slug, 'tag', () =>
    payloadWrite(() => payload.create({ collection: 'tags', data: { slug, label: input.label, facet }, overrideAccess: true })),
  )
  return getTag(payload, slug)
}

export async function updateTag(payload: Payload, slug: string, patch: TagPatch, ifMatch?: IfMatch): Promise<VersionedTag> {
  const found = await payload.find({ collection: 'tags', where: { slug: { equals: slug } }, limit: 1, depth: 0, overrideAccess: true })
  const tag = found.docs[0]
  if (!tag) throw tagNotFound()
  const data: Record<string, unknown> = {}
  if (patch.label !== undefined) data.label = patch.label
  if (patch.facet !== undefined) data.facet = await facetId(payload, patch.facet)
  if (Object.keys(data).length > 0) {
    await payloadWrite(() => payload.update({ collection: 'tags', id: tag.id, data, overrideAccess: true, context: conditionalContext(ifMatch) }))
  } else {
    assertVersion(ifMatch, tag.updatedAt)
  }
  return getVersionedTag(payload, slug)
}

export type RenameOptions = { actorId: string | null; afterContentUpdate?: () => void }

export async function renameTag(
  payload: Payload,
  ref: TagRef,
  newSlug: string,
  { actorId, afterContentUpdate }: RenameOptions,
): Promise<{ slug: string; contentCount: number }> {
  assertSlug(newSlug, 'newSlug')
  const slug = await slugOf(payload, ref)
  if (newSlug === slug) throw slugConflict(newSlug, 'tag')
  await assertSlugFree(payload, newSlug)
  const result = await applyTagRename(payload, { oldSlug: slug, newSlug, actorId, at: new Date(), afterContentUpdate })
  if (result.outcome === 'not_found') throw tagNotFound()
  // Taken meanwhile (the claim's unique index): name whoever holds it now.
  if (result.outcome === 'taken') throw slugConflict(newSlug, (await slugHolder(payload, newSlug)) ?? 'tag')
  if (result.outcome === 'busy') throw new ApiError(409, 'slug.conflict', 'This tag is being renamed already; try again once that rename has finished.')
  // Caches need nothing: the generations move once the rename commits (src/db/freshness/generations).
  return { slug: newSlug, contentCount: result.contentCount }
}

/** How many items a rename would touch (the console shows it before asking). */
export async function renameImpact(payload: Payload, ref: TagRef): Promise<number> {
  const slug = await slugOf(payload, ref)
  const res = await payload.count({ collection: 'content', where: { tagSlugs: { contains: slug } }, overrideAccess: true })
  return res.totalDocs
}

/** The tags' workflow field: a slug changes only through renameTag (content follows, audit written). */
export const TAG_WORKFLOW_FIELDS: readonly WorkflowField[] = [{ name: 'slug', use: 'Rename (the Rename action, or POST /api/v1/tags/<slug>/rename)' }]
