/**
 * The console's taxonomy tree actions: Payload collection endpoints on `surfaces`
 * (POST /api/surfaces/tree/reorder | active | create), on the console adapter
 * (src/edge/consoleEndpoint.ts: session, envelope, request id, log line), guarded by
 * catalog.manage like the API's routes and calling the same services with the same body
 * schemas: reorderChildren, updateNode (isActive) and createNode.
 */
import type { DataFromCollectionSlug, Payload, Where } from 'payload'
import { z } from 'zod'

import { consoleEndpoint } from '../src/edge/consoleEndpoint'
import { parseWith } from '../src/edge/validation'
import { ApiError } from '../src/platform/errors'
import { suggestSlug } from '../src/platform/slug'
import { createNode, type ReorderableKind, reorderChildren, updateNode } from '../src/services/taxonomyWrites'
import { createBodies, reorderBody } from './taxonomyWrites'

const kind = z.enum(['surface', 'group', 'channel'])
const id = z.string().min(1).max(64)
const reorderInput = z.strictObject({ kind, parentId: id.optional(), slugs: reorderBody.shape.slugs })
const activeInput = z.strictObject({ kind, id, isActive: z.boolean() })
/** The tree's inline form: the label, the slug (derived from the label when absent) and the parent. */
const createInput = z.strictObject({ kind, parentId: id.optional(), label: z.string(), slug: z.string().optional() })

const COLLECTION = { surface: 'surfaces', group: 'groups', channel: 'channels' } as const
const PARENT_KIND = { surface: undefined, group: 'surface', channel: 'group' } as const

type Node = DataFromCollectionSlug<(typeof COLLECTION)[ReorderableKind]>

async function byId(payload: Payload, k: ReorderableKind, nodeId: string): Promise<Node> {
  const found = await payload.find({ collection: COLLECTION[k], where: { id: { equals: nodeId } }, limit: 1, depth: 0, overrideAccess: true })
  const doc = found.docs[0]
  if (!doc) throw new ApiError(404, `${k}.not_found`, `No ${k} has this id.`)
  return doc
}

/** The parent a child of `k` hangs from (none for surfaces); 400 when the kind needs one and none is given. */
async function parentFor(payload: Payload, k: ReorderableKind, parentId: string | undefined): Promise<{ id: string; key: string; doc: Node } | undefined> {
  const parentKind = PARENT_KIND[k]
  if (!parentKind) return undefined
  if (!parentId) throw new ApiError(400, 'validation.failed', 'The request is not valid.', [{ field: 'parentId', constraint: 'required' }])
  const doc = await byId(payload, parentKind, parentId)
  return { id: String(doc.id), key: doc.slug, doc }
}

/** A parent's colour for its new children: a surface's accent, a group's colour. */
function colourOf(doc: Node | undefined): string {
  if (doc && 'accentColor' in doc) return doc.accentColor
  if (doc && 'color' in doc) return doc.color
  return '#64748b'
}

const MANAGE = ['catalog.manage']

export const taxonomyConsoleEndpoints = [
  consoleEndpoint('surfaces', {
    method: 'post',
    path: '/tree/reorder',
    permissions: MANAGE,
    request: { body: reorderInput },
    handler: async ({ req, input }) => {
      const { kind: k, parentId, slugs } = input.body
      return { data: await reorderChildren(req.payload, k, await parentFor(req.payload, k, parentId), slugs) }
    },
  }),
  consoleEndpoint('surfaces', {
    method: 'post',
    path: '/tree/active',
    permissions: MANAGE,
    request: { body: activeInput },
    handler: async ({ req, input }) => {
      const { kind: k, id: nodeId, isActive } = input.body
      const doc = await byId(req.payload, k, nodeId)
      return { data: await updateNode(req.payload, k, doc, { isActive }) }
    },
  }),
  consoleEndpoint('surfaces', {
    method: 'post',
    path: '/tree/create',
    permissions: MANAGE,
    request: { body: createInput },
    handler: async ({ req, input }) => {
      const { kind: k, parentId, label, slug } = input.body
      const parent = await parentFor(req.payload, k, parentId)
      const siblingsOf: Where = parent ? { [PARENT_KIND[k]!]: { equals: parent.id } } : {}
      const siblings = await req.payload.count({ collection: COLLECTION[k], where: siblingsOf, overrideAccess: true })
      // New children go last, in the parent's colour (a surface's accent for its groups).
      const colour = colourOf(parent?.doc)
      // Without a slug, createNode takes the slug default (reserved or taken: -2, -3, …).
      const given = slug?.trim() || undefined
      const base = { label, ...(given ? { slug: given } : {}), displayOrder: siblings.totalDocs }
      const body2 =
        k === 'surface'
          ? { ...base, routePrefix: `/${given ?? (suggestSlug(label) || 'surface')}`, browseMode: 'grid', accentColor: '#64748b' }
          : k === 'group'
            ? { ...base, color: colour }
            : base
      const data = parseWith(createBodies[k], body2)
      const created = await createNode(req.payload, k, data, parent && { id: parent.id, key: parent.key })
      return { data: { ...created, parentId: parent ? parent.id : null } }
    },
  }),
]
