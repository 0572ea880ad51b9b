/**
 * Slugs are globally unique across tags, content and surfaces (the spec's Slugs section): one
 * slug, one holder. The `slug-claims` collection holds a row per held slug, under a unique
 * index, written in the same transaction as the holder's own write, so two writers racing for
 * one slug through different collections still meet: one wins, the other is 409
 * `slug.conflict` with `details: { slug, entity }` (the entity that holds it). Groups and
 * channels are unique within their parent only, platforms and facets within their own
 * collection: they claim nothing here.
 */
import type { Payload, PayloadRequest } from 'payload'

import { uniqueViolationField } from '../db/engine'
import { ApiError } from '../platform/errors'

export const SLUG_ENTITIES = ['content', 'tag', 'surface'] as const
export type SlugEntity = (typeof SLUG_ENTITIES)[number]

export const slugConflict = (slug: string, entity: SlugEntity) =>
  new ApiError(409, 'slug.conflict', `The slug "${slug}" is already in use by a ${entity}.`, { slug, entity })

/** Which entity holds this slug, or null. */
export async function slugHolder(payload: Payload, slug: string, req?: PayloadRequest): Promise<SlugEntity | null> {
  const found = await payload.find({ collection: 'slug-claims', where: { slug: { equals: slug } }, limit: 1, depth: 0, overrideAccess: true, pagination: false, req })
  return (found.docs[0]?.entity as SlugEntity | undefined) ?? null
}

export const isSlugHeld = async (payload: Payload, slug: string): Promise<boolean> => (await slugHolder(payload, slug)) !== null

/** 409 `slug.conflict` naming the holder, when the slug is held. */
export async function assertSlugFree(payload: Payload, slug: string): Promise<void> {
  const holder = await slugHolder(payload, slug)
  if (holder) throw slugConflict(slug, holder)
}

/**
 * A write's failure as the spec's 409 when it was this slug being taken: a claim refused (the
 * holder's hook already said who holds it), or a unique index on `slug` (a racing writer of the
 * same entity, or a claim in a plan), naming the holder as read after the fact. Null otherwise.
 */
export async function asSlugConflict(payload: Payload, err: unknown, slug: string, entity: SlugEntity): Promise<ApiError | null> {
  if (err instanceof ApiError) return err.code === 'slug.conflict' ? err : null
  if (uniqueViolationField(err) !== 'slug') return null
  return slugConflict(slug, (await slugHolder(payload, slug)) ?? entity)
}

/** Runs a write of a new holder of `slug`; the slug being taken meanwhile is 409 `slug.conflict`. */
export async function claimingWrite<T>(payload: Payload, slug: string, entity: SlugEntity, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (err) {
    throw (await asSlugConflict(payload, err, slug, entity)) ?? err
  }
}

/**
 * The holder's claim follows its write, in its transaction (`req`): a new holder claims its
 * slug, a changed slug moves the claim. A slug held by another is 409 `slug.conflict`.
 */
export async function followSlug(req: PayloadRequest, entity: SlugEntity, owner: string, slug: string, previous?: string): Promise<void> {
  const { payload } = req
  if (previous === slug) return
  try {
    if (previous !== undefined) {
      await payload.delete({ collection: 'slug-claims', where: { owner: { equals: owner }, entity: { equals: entity } }, overrideAccess: true, req })
    }
    await payload.create({ collection: 'slug-claims', data: { slug, entity, owner }, overrideAccess: true, req })
  } catch (err) {
    throw (await asSlugConflict(payload, err, slug, entity)) ?? err
  }
}

