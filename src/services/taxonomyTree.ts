/**
 * The console's taxonomy tree (app/(payload)/admin/_components/TaxonomyTreeEditor.tsx) names
 * nodes by id and adds children from a label alone: here its nodes are found by id, a child's
 * parent checked, and a new child's whole body composed (the place, the colour, the address),
 * for the same create, update and reorder the API's routes call (./taxonomyWrites).
 */
import type { DataFromCollectionSlug, Payload, Where } from 'payload'

import { ApiError } from '../platform/errors'
import { suggestSlug } from '../platform/slug'
import { PARENT_KIND, type ReorderableKind, REORDERABLE } from './taxonomyWrites'

/** A node with no colour of its own to hand down (a new surface's accent). */
const NEUTRAL = '#64748b'

type Node = DataFromCollectionSlug<(typeof REORDERABLE)[ReorderableKind]['collection']>

/** The parent a tree node hangs from, as ./taxonomyWrites takes it. */
export type TreeParent = { id: string; key: string; doc: Node }

/** A node of the tree by its id; 404 `<kind>.not_found`. */
export async function treeNode(payload: Payload, kind: ReorderableKind, id: string): Promise<Node> {
  const found = await payload.find({ collection: REORDERABLE[kind].collection, where: { id: { equals: id } }, limit: 1, depth: 0, overrideAccess: true })
  const doc = found.docs[0]
  if (!doc) throw new ApiError(404, `${kind}.not_found`, `No ${kind} has this id.`)
  return doc
}

/** The parent a child of `kind` hangs from (none for surfaces); 400 when the kind needs one and none is given. */
export async function treeParent(payload: Payload, kind: ReorderableKind, parentId: string | undefined): Promise<TreeParent | undefined> {
  const parentKind = PARENT_KIND[kind]
  if (!parentKind) return undefined
  if (!parentId) throw new ApiError(400, 'validation.failed', 'The request is not valid.', [{ field: 'parentId', constraint: 'required' }])
  const doc = await treeNode(payload, parentKind, parentId)
  return { id: String(doc.id), key: doc.slug, doc }
}

/** A parent's colour for its new children: a surface's accent, a group's colour. */
function colourOf(doc: Node | undefined): string {
  if (doc && 'accentColor' in doc) return doc.accentColor
  if (doc && 'color' in doc) return doc.color
  return NEUTRAL
}

/**
 * The body of a child added from the tree's inline form: last among its siblings, in its parent's
 * colour; a surface gets the address of its slug and the grid. Without a slug the create takes the
 * slug default (reserved or taken: -2, -3, …). The caller checks it with the API's create schema.
 */
export async function newTreeNode(
  payload: Payload,
  input: { kind: ReorderableKind; parentId?: string; label: string; slug?: string },
): Promise<{ body: Record<string, unknown>; parent: TreeParent | undefined }> {
  const { kind, label } = input
  const parent = await treeParent(payload, kind, input.parentId)
  const { collection, parentField } = REORDERABLE[kind]
  const siblingsOf: Where = parent && parentField ? { [parentField]: { equals: parent.id } } : {}
  const siblings = await payload.count({ collection, where: siblingsOf, overrideAccess: true })
  const slug = input.slug?.trim() || undefined
  const base = { label, ...(slug ? { slug } : {}), displayOrder: siblings.totalDocs }
  const body =
    kind === 'surface'
      ? { ...base, routePrefix: `/${slug ?? (suggestSlug(label) || 'surface')}`, browseMode: 'grid', accentColor: NEUTRAL }
      : kind === 'group'
        ? { ...base, color: colourOf(parent?.doc) }
        : base
  return { body, parent }
}
