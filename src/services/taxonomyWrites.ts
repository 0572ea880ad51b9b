/**
 * Taxonomy writes (catalog.manage): surfaces, groups (per surface), channels (per group),
 * platforms and facets. Created, updated (including displayOrder and isActive: nothing is
 * hard-deleted) and renamed. Content refers to groups, channels and platforms by id, so a
 * rename is one row's update and the content follows it atomically. Payload's afterChange
 * hooks invalidate the catalog. The kinds and their fields are src/services/taxonomyFields.ts.
 */
import type { DataFromCollectionSlug, Payload, RequiredDataFromCollectionSlug, Where } from 'payload'

import type { AuthUser } from '../../access/guards'
import { engine, type ReorderCollection } from '../db/engine'
import { ApiError } from '../platform/errors'
import { assertSlug, chooseSlug } from '../platform/slug'
import { withConflicts } from './conflicts'
import { assertSlugFree, claimingWrite, isSlugHeld, slugConflict, slugHolder } from './slugClaims'
import { type KindSpec, TAXONOMY_KINDS, type TaxonomyKind } from './taxonomyFields'
import { WORKFLOW_CONTEXT, type WorkflowField } from './workflowGuard'
import { recordedUpdate, reorderTaxonomy } from '../db/workflow'
import { payloadWrite } from '../db/payloadWrite'
import { assertVersion, conditionalContext, type IfMatch } from './recordVersions'

export type { TaxonomyKind }

const KINDS = TAXONOMY_KINDS

type TaxonomyCollection = KindSpec['collection']

/** A taxonomy node as the Local API reads it: a surface, group, channel, platform or facet. */
type Doc = DataFromCollectionSlug<TaxonomyCollection>

/** A new node's fields, as the Local API types a creation in one of the taxonomy collections. */
type CreateData = RequiredDataFromCollectionSlug<TaxonomyCollection>

/** A node's fields by name (spreading the typed document gives a plain record of them). */
const fieldsOf = (doc: Doc): Record<string, unknown> => ({ ...doc })

/** The written node as the API returns it: its own fields, the parent by slug. */
export type TaxonomyNodeDto = Record<string, unknown> & { updatedAt: string }

function toDto(kind: TaxonomyKind, doc: Doc, parentKey?: string): TaxonomyNodeDto {
  const spec = KINDS[kind]
  const fields = fieldsOf(doc)
  const dto: TaxonomyNodeDto = { id: String(doc.id), [spec.keyField]: fields[spec.keyField], updatedAt: doc.updatedAt }
  if (spec.parentField) dto[spec.parentField] = parentKey ?? null
  for (const f of Object.keys(spec.fields)) dto[f] = fields[f] ?? null
  dto.createdAt = doc.createdAt
  return dto
}

export const notFoundError = (kind: TaxonomyKind) => new ApiError(404, `${kind}.not_found`, `No ${kind} has this ${KINDS[kind].keyField}.`)

/** Finds a node by key (within its parent); 404 `<kind>.not_found`. */
export async function findNode(payload: Payload, kind: TaxonomyKind, key: string, parentId?: string): Promise<Doc> {
  const spec = KINDS[kind]
  const where: Where = { [spec.keyField]: { equals: key } }
  if (spec.parentField) where[spec.parentField] = { equals: parentId }
  const found = await payload.find({ collection: spec.collection, where, limit: 1, depth: 0, overrideAccess: true })
  const doc = found.docs[0]
  if (!doc) throw notFoundError(kind)
  return doc
}

const keyConflict = (kind: TaxonomyKind, key: string) =>
  new ApiError(409, 'slug.conflict', `The ${KINDS[kind].keyField} "${key}" is already in use.`, { slug: key, entity: kind })

async function isTaken(payload: Payload, kind: TaxonomyKind, key: string, parentId?: string): Promise<boolean> {
  // A surface's slug is global among tags, content and surfaces (./slugClaims).
  if (kind === 'surface') return isSlugHeld(payload, key)
  const spec = KINDS[kind]
  const where: Where = { [spec.keyField]: { equals: key } }
  if (spec.parentField) where[spec.parentField] = { equals: parentId }
  const taken = await payload.count({ collection: spec.collection, where, overrideAccess: true })
  return taken.totalDocs > 0
}

async function assertFree(payload: Payload, kind: TaxonomyKind, key: string, parentId?: string): Promise<void> {
  if (kind === 'surface') return assertSlugFree(payload, key)
  if (await isTaken(payload, kind, key, parentId)) throw keyConflict(kind, key)
}

/** A unique index still guards the race between the check and the write (for a surface, its claim). */
const guarded = <T>(payload: Payload, kind: TaxonomyKind, key: string, write: () => Promise<T>): Promise<T> =>
  kind === 'surface' ? claimingWrite(payload, key, 'surface', write) : withConflicts({ [KINDS[kind].keyField]: () => keyConflict(kind, key) }, write)

export async function createNode(
  payload: Payload,
  kind: TaxonomyKind,
  data: Record<string, unknown>,
  parent?: { id: string; key: string },
): Promise<TaxonomyNodeDto> {
  const spec = KINDS[kind]
  // Without a slug (key), the default derives from the label, as for tags and content.
  const explicit = data[spec.keyField]
  const key = await chooseSlug({
    explicit,
    value: String(data.label ?? ''),
    from: 'label',
    field: spec.keyField,
    entity: kind,
    isTaken: (candidate) => isTaken(payload, kind, candidate, parent?.id),
  })
  if (explicit !== undefined) await assertFree(payload, kind, key, parent?.id)
  // `data` passed the kind's create schema, built from the same field table as the collection
  // (endpoints/taxonomyWrites.ts): it is the collection's creation data, which the Local API names.
  const created = { ...data, [spec.keyField]: key, ...(spec.parentField ? { [spec.parentField]: parent!.id } : {}) } as CreateData
  const doc = await guarded(payload, kind, key, () => payloadWrite(() => payload.create({ collection: spec.collection, data: created, overrideAccess: true })))
  return toDto(kind, doc, parent?.key)
}

export async function updateNode(
  payload: Payload,
  kind: TaxonomyKind,
  doc: Doc,
  patch: Record<string, unknown>,
  parentKey?: string,
  ifMatch?: IfMatch,
): Promise<TaxonomyNodeDto> {
  if (!Object.keys(patch).length) {
    assertVersion(ifMatch, doc.updatedAt)
    return toDto(kind, doc, parentKey)
  }
  const updated = await payloadWrite(() => payload.update({ collection: KINDS[kind].collection, id: doc.id, data: patch, overrideAccess: true, context: conditionalContext(ifMatch) }))
  return toDto(kind, updated, parentKey)
}

/**
 * The key changes with its audit event in one transaction (the engine's recorded update,
 * guarded on the old key); the write moves the taxonomy change counter, which the caches key on.
 */
export async function renameNode(
  payload: Payload,
  kind: TaxonomyKind,
  doc: Doc,
  newKey: string,
  parent: { id: string; key: string } | undefined,
  actor: AuthUser | null,
): Promise<TaxonomyNodeDto> {
  const spec = KINDS[kind]
  assertSlug(newKey, 'newSlug')
  const oldKey = String(fieldsOf(doc)[spec.keyField])
  if (newKey === oldKey) return toDto(kind, doc, parent?.key)
  await assertFree(payload, kind, newKey, parent?.id)
  const result = await recordedUpdate(payload, {
    collection: spec.collection,
    id: String(doc.id),
    expect: { [spec.keyField]: oldKey },
    set: { [spec.keyField]: newKey },
    domain: 'taxonomy',
    ...(kind === 'surface' ? { slugClaim: { entity: 'surface' as const, slug: newKey } } : {}),
    event: {
      actorId: actor?.id ?? null,
      action: 'taxonomy.rename',
      targetSlug: newKey,
      stateBefore: oldKey,
      stateAfter: newKey,
      reason: kind,
      at: new Date(),
    },
  })
  if (result === 'taken') throw kind === 'surface' ? slugConflict(newKey, (await slugHolder(payload, newKey)) ?? 'surface') : keyConflict(kind, newKey)
  if (result === 'unchanged') throw notFoundError(kind)
  return toDto(kind, await findNode(payload, kind, newKey, parent?.id), parent?.key)
}

const RENAME_ROUTES: Record<TaxonomyKind, string> = {
  surface: 'POST /api/v1/catalog/surfaces/<slug>/rename',
  group: 'POST /api/v1/catalog/surfaces/<surface>/groups/<slug>/rename',
  channel: 'POST /api/v1/catalog/surfaces/<surface>/groups/<group>/channels/<slug>/rename',
  platform: 'POST /api/v1/catalog/platforms/<slug>/rename',
  facet: 'POST /api/v1/catalog/facets/<key>/rename',
}

/** A node's workflow field: its slug (key) changes only through renameNode (collections/hooks/workflowFields.ts guards it). */
export const renameOnlyFields = (kind: TaxonomyKind): { collection: string; fields: WorkflowField[] } => ({
  collection: KINDS[kind].collection,
  fields: [{ name: KINDS[kind].keyField, use: `the rename operation (${RENAME_ROUTES[kind]})` }],
})

// ---- Reorder: one parent's children, displayOrder = position, in one transaction ----

export type ReorderableKind = 'surface' | 'group' | 'channel'

/** Each kind of the tree: its collection and the field naming its parent (./taxonomyTree too). */
export const REORDERABLE = { surface: { collection: 'surfaces', parentField: undefined }, group: { collection: 'groups', parentField: 'surface' }, channel: { collection: 'channels', parentField: 'group' } } as const satisfies Record<ReorderableKind, Pick<KindSpec, 'collection' | 'parentField'>>

/** The kind a child of each kind hangs from. */
export const PARENT_KIND: Record<ReorderableKind, 'surface' | 'group' | undefined> = { surface: undefined, group: 'surface', channel: 'group' }

/** The children of `parent` (every surface for surfaces) in their current display order. */
export async function childrenOf(payload: Payload, kind: ReorderableKind, parentId?: string): Promise<DataFromCollectionSlug<'surfaces' | 'groups' | 'channels'>[]> {
  const spec = REORDERABLE[kind]
  const where: Where = spec.parentField ? { [spec.parentField]: { equals: parentId } } : {}
  const found = await payload.find({ collection: spec.collection, where, sort: 'displayOrder', pagination: false, depth: 0, overrideAccess: true })
  return found.docs
}

/** Why `ordered` is not exactly the children's slugs: unknown, repeated and missing slugs. */
function listProblems(actual: readonly string[], ordered: readonly string[]): { field: string; constraint: string; value: string }[] {
  const have = new Set(actual)
  const seen = new Set<string>()
  const problems: { field: string; constraint: string; value: string }[] = []
  ordered.forEach((slug, i) => {
    if (!have.has(slug)) problems.push({ field: `slugs[${i}]`, constraint: 'unknown', value: slug })
    else if (seen.has(slug)) problems.push({ field: `slugs[${i}]`, constraint: 'duplicate', value: slug })
    seen.add(slug)
  })
  for (const slug of actual) if (!seen.has(slug)) problems.push({ field: 'slugs', constraint: 'required', value: slug })
  return problems
}

const notTheChildren = (details: unknown) =>
  new ApiError(400, 'validation.failed', "The list must name each of the parent's children exactly once.", details)

/**
 * Sets the display order of every child of `parent` (surfaces: all surfaces) to its position in
 * `orderedSlugs`, which must name each child exactly once (400 validation.failed otherwise,
 * nothing written). All writes and the catalog's change counter commit together.
 */
export async function reorderChildren(
  payload: Payload,
  kind: ReorderableKind,
  parent: { id: string; key: string } | undefined,
  orderedSlugs: readonly string[],
): Promise<TaxonomyNodeDto[]> {
  const spec = KINDS[kind]
  const children = await childrenOf(payload, kind, parent?.id)
  const idBySlug = new Map(children.map((c) => [String(c.slug), String(c.id)]))
  const problems = listProblems([...idBySlug.keys()], orderedSlugs)
  if (problems.length) throw notTheChildren(problems)
  const parentField = PARENT_KIND[kind]
  const result = await reorderTaxonomy(payload, {
    collection: spec.collection as ReorderCollection,
    ...(parentField && parent ? { parent: { field: parentField, id: parent.id } } : {}),
    orderedIds: orderedSlugs.map((slug) => idBySlug.get(slug)!),
    at: new Date(),
  })
  // A child added or moved away between the read and the transaction: nothing was written.
  if (result.outcome === 'mismatch') throw notTheChildren([{ field: 'slugs', constraint: 'stale', value: 'the children changed; reload and retry' }])
  return (await childrenOf(payload, kind, parent?.id)).map((doc) => toDto(kind, doc, parent?.key))
}
