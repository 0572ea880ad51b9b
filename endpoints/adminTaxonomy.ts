/**
 * The console's taxonomy tree actions: Payload collection endpoints on `surfaces`
 * (POST /api/surfaces/tree/reorder | active | create), authenticated by the console session,
 * guarded by catalog.manage like the API's routes and calling the same services with the same
 * body schemas: reorderChildren, updateNode (isActive) and createNode.
 */
import type { Endpoint, PayloadRequest } from 'payload'
import { z } from 'zod'

import { permissionsOf } from '../access/userPermissions'
import { parseWith } from '../src/api/validation'
import { ApiError } from '../src/errors'
import { suggestSlug } from '../src/slug'
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

type Node = { id: string | number; slug: string; [key: string]: unknown }

async function byId(req: PayloadRequest, k: ReorderableKind, nodeId: string): Promise<Node> {
  const found = await req.payload.find({ collection: COLLECTION[k], where: { id: { equals: nodeId } }, limit: 1, depth: 0, overrideAccess: true })
  const doc = found.docs[0] as unknown as Node | undefined
  if (!doc) throw new ApiError(404, `${k}.not_found`, `No ${k} has this id.`)
  return doc
}

/** The parent a child of `k` hangs from (none for surfaces); 400 when the kind needs one and none is given. */
async function parentFor(req: PayloadRequest, k: ReorderableKind, parentId: string | undefined): Promise<{ id: string; key: string; doc: Node } | undefined> {
  const parentKind = PARENT_KIND[k]
  if (!parentKind) return undefined
  if (!parentId) throw new ApiError(400, 'validation.failed', 'The request is not valid.', [{ field: 'parentId', constraint: 'required' }])
  const doc = await byId(req, parentKind, parentId)
  return { id: String(doc.id), key: doc.slug, doc }
}

async function guarded(req: PayloadRequest, work: (input: unknown) => Promise<unknown>): Promise<Response> {
  try {
    if (!req.user) throw new ApiError(401, 'auth.missing_token', 'Sign in first.')
    if (!permissionsOf(req).includes('catalog.manage')) throw new ApiError(403, 'auth.forbidden', 'You may not manage the catalog.')
    const input: unknown = req.json ? await req.json().catch(() => undefined) : undefined
    return Response.json({ success: true, data: await work(input) })
  } catch (err) {
    if (!(err instanceof ApiError)) throw err
    return Response.json({ success: false, error: { code: err.code, message: err.message, details: err.details } }, { status: err.status })
  }
}

export const taxonomyConsoleEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/tree/reorder',
    handler: (req) =>
      guarded(req, async (input) => {
        const { kind: k, parentId, slugs } = parseWith(reorderInput, input)
        return reorderChildren(req.payload, k, await parentFor(req, k, parentId), slugs)
      }),
  },
  {
    method: 'post',
    path: '/tree/active',
    handler: (req) =>
      guarded(req, async (input) => {
        const { kind: k, id: nodeId, isActive } = parseWith(activeInput, input)
        const doc = await byId(req, k, nodeId)
        return updateNode(req.payload, k, doc, { isActive })
      }),
  },
  {
    method: 'post',
    path: '/tree/create',
    handler: (req) =>
      guarded(req, async (input) => {
        const { kind: k, parentId, label, slug } = parseWith(createInput, input)
        const parent = await parentFor(req, k, parentId)
        const siblings = await req.payload.count({
          collection: COLLECTION[k],
          where: (parent ? { [PARENT_KIND[k]!]: { equals: parent.id } } : {}) as never,
          overrideAccess: true,
        })
        // New children go last, in the parent's colour (a surface's accent for its groups).
        const colour = String(parent?.doc.accentColor ?? parent?.doc.color ?? '#64748b')
        const derived = slug?.trim() || suggestSlug(label)
        const base = { label, slug: derived, displayOrder: siblings.totalDocs }
        const body =
          k === 'surface'
            ? { ...base, routePrefix: `/${derived}`, browseMode: 'grid', accentColor: '#64748b' }
            : k === 'group'
              ? { ...base, color: colour }
              : base
        const data = parseWith(createBodies[k], body)
        const created = await createNode(req.payload, k, data, parent && { id: parent.id, key: parent.key })
        return { ...created, parentId: parent ? parent.id : null }
      }),
  },
]
