/**
 * The console's taxonomy tree actions: Payload collection endpoints on `surfaces`
 * (POST /api/surfaces/tree/reorder | active | create), on the console adapter
 * (src/edge/consoleEndpoint.ts: session, envelope, request id, log line), guarded by
 * catalog.manage like the API's routes and calling the same services with the same body
 * schemas: reorderChildren, updateNode (isActive) and createNode, the tree's ids and a new
 * child's body from src/services/taxonomyTree.
 */
import { z } from 'zod'

import { consoleEndpoint } from '../src/edge/consoleEndpoint'
import { parseWith } from '../src/edge/validation'
import { newTreeNode, treeNode, treeParent } from '../src/services/taxonomyTree'
import { createNode, reorderChildren, updateNode } from '../src/services/taxonomyWrites'
import { createBodies, reorderBody } from './taxonomyWrites'

const kind = z.enum(['surface', 'group', 'channel'])
const id = z.string().min(1).max(64)
const reorderInput = z.strictObject({ kind, parentId: id.optional(), slugs: reorderBody.shape.slugs })
const activeInput = z.strictObject({ kind, id, isActive: z.boolean() })
/** The tree's inline form: the label, the slug (derived from the label when absent) and the parent. */
const createInput = z.strictObject({ kind, parentId: id.optional(), label: z.string(), slug: z.string().optional() })

const MANAGE = ['catalog.manage']

export const taxonomyConsoleEndpoints = [
  consoleEndpoint('surfaces', {
    method: 'post',
    path: '/tree/reorder',
    permissions: MANAGE,
    request: { body: reorderInput },
    handler: async ({ req, input }) => {
      const { kind: k, parentId, slugs } = input.body
      return { data: await reorderChildren(req.payload, k, await treeParent(req.payload, k, parentId), slugs) }
    },
  }),
  consoleEndpoint('surfaces', {
    method: 'post',
    path: '/tree/active',
    permissions: MANAGE,
    request: { body: activeInput },
    handler: async ({ req, input }) => {
      const { kind: k, id: nodeId, isActive } = input.body
      return { data: await updateNode(req.payload, k, await treeNode(req.payload, k, nodeId), { isActive }) }
    },
  }),
  consoleEndpoint('surfaces', {
    method: 'post',
    path: '/tree/create',
    permissions: MANAGE,
    request: { body: createInput },
    handler: async ({ req, input }) => {
      const { body, parent } = await newTreeNode(req.payload, input.body)
      // The composed body meets the API's create schema for its kind, as a POST to the API's route would.
      const created = await createNode(req.payload, input.body.kind, parseWith(createBodies[input.body.kind], body), parent && { id: parent.id, key: parent.key })
      return { data: { ...created, parentId: parent ? parent.id : null } }
    },
  }),
]
