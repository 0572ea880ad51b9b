/**
 * Taxonomy writes under /catalog: POST creates (without a slug, the default derived from the
 * label), PATCH …/<slug> updates, POST …/<slug>/rename
 * renames, POST …/reorder sets one parent's children's order. Renames of surfaces, groups and channels are admin operations: they need every
 * permission of the table (checked as permissions, never by role name).
 */
import type { Payload } from 'payload'
import { z } from 'zod'

import type { ErrorCode } from '../src/edge/errorCodes'
import { defineRoute, type RouteSpec, versioned } from '../src/edge/route'
import { PERMISSIONS } from '../src/auth/permissions'
import { FIELD_RULES, TAXONOMY_KINDS } from '../src/services/taxonomyFields'
import { createNode, findNode, renameNode, reorderChildren, type ReorderableKind, type TaxonomyKind, updateNode } from '../src/services/taxonomyWrites'
import { TaxonomyNodes } from './dtos'
import { renameBody } from './tagWrites'

/** A kind's request schemas, from the one field table (src/services/taxonomyFields.ts). */
function bodiesOf(kind: TaxonomyKind): { create: z.ZodObject; patch: z.ZodObject } {
  const spec = TAXONOMY_KINDS[kind]
  const fields = Object.fromEntries(
    Object.entries(spec.fields).map(([name, f]) => [name, f.required ? FIELD_RULES[f.rule] : FIELD_RULES[f.rule].optional()]),
  )
  // The address is optional on creation (the default derives from the label); updates take
  // every field but the address (renames have their own route), all optional.
  return { create: z.strictObject({ [spec.keyField]: z.string().optional(), ...fields }), patch: z.strictObject(fields).partial() }
}

const KINDS = Object.keys(TAXONOMY_KINDS) as TaxonomyKind[]
export const createBodies = Object.fromEntries(KINDS.map((kind) => [kind, bodiesOf(kind).create])) as Record<TaxonomyKind, z.ZodObject>
const patchBodies = Object.fromEntries(KINDS.map((kind) => [kind, bodiesOf(kind).patch])) as Record<TaxonomyKind, z.ZodObject>
/** The parent's children's slugs in their new order (every child exactly once). */
export const reorderBody = z.strictObject({ slugs: z.array(z.string()).min(1).max(1000) })

type Parent = { id: string; key: string }

/** Resolves the path's parents: a group's surface, a channel's surface and group. */
async function parentOf(payload: Payload, kind: TaxonomyKind, params: Record<string, string>): Promise<Parent | undefined> {
  if (kind === 'group' || kind === 'channel') {
    const surface = await findNode(payload, 'surface', params.surface!)
    if (kind === 'group') return { id: String(surface.id), key: params.surface! }
    const group = await findNode(payload, 'group', params.group!, String(surface.id))
    return { id: String(group.id), key: params.group! }
  }
  return undefined
}

/** The not-found codes of a kind's parents in the path (a group's surface; a channel's surface and group). */
function parentNotFoundCodes(kind: TaxonomyKind): ErrorCode[] {
  return kind === 'group' ? ['surface.not_found'] : kind === 'channel' ? ['surface.not_found', 'group.not_found'] : []
}

function routesFor(kind: TaxonomyKind, base: string, param: string, renamePermissions: readonly string[]): RouteSpec[] {
  const manage = ['catalog.manage']
  const data = TaxonomyNodes[kind]
  // The parents' lookups answer their own not-found codes.
  const parents = parentNotFoundCodes(kind)
  const own = `${kind}.not_found` as const
  return [
    defineRoute({
      method: 'post',
      path: base,
      permissions: manage,
      summary: `Create a ${kind}`,
      request: { body: createBodies[kind] },
      responses: { data, status: 201, errors: [...parents, 'slug.conflict', 'slug.reserved'] },
      handler: async ({ req, params, input }) => {
        const data = input.body
        return { status: 201, data: await createNode(req.payload, kind, data, await parentOf(req.payload, kind, params)) }
      },
    }),
    defineRoute({
      method: 'patch',
      path: `${base}/:${param}`,
      permissions: manage,
      summary: `Update a ${kind} (every field but its address)`,
      request: { body: patchBodies[kind] },
      responses: { data, errors: [...parents, own], versioned: true },
      handler: async ({ req, params, input, ifMatch }) => {
        const patch = input.body
        const parent = await parentOf(req.payload, kind, params)
        const doc = await findNode(req.payload, kind, params[param]!, parent?.id)
        const node = await updateNode(req.payload, kind, doc, patch, parent?.key, ifMatch)
        return versioned(node)
      },
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:${param}/rename`,
      permissions: renamePermissions,
      summary: `Rename a ${kind}`,
      request: { body: renameBody },
      responses: { data, errors: [...parents, own, 'slug.conflict', 'slug.reserved'] },
      handler: async ({ req, params, user, input }) => {
        const { newSlug } = input.body
        const parent = await parentOf(req.payload, kind, params)
        const doc = await findNode(req.payload, kind, params[param]!, parent?.id)
        return { data: await renameNode(req.payload, kind, doc, newSlug, parent, user) }
      },
    }),
  ]
}

/** POST <children>/reorder { slugs }: the children of the path's parent, in one transaction. */
function reorderRoute(kind: ReorderableKind, base: string): RouteSpec {
  return defineRoute({
    method: 'post',
    path: `${base}/reorder`,
    permissions: ['catalog.manage'],
    summary: `Reorder the ${kind}s of one parent (displayOrder, one transaction)`,
    request: { body: reorderBody },
    responses: {
      data: z.array(TaxonomyNodes[kind]),
      errors: parentNotFoundCodes(kind),
    },
    handler: async ({ req, params, input }) => {
      const { slugs } = input.body
      return { data: await reorderChildren(req.payload, kind, await parentOf(req.payload, kind, params), slugs) }
    },
  })
}

const ADMIN = PERMISSIONS

export const taxonomyWriteRoutes: RouteSpec[] = [
  reorderRoute('surface', '/catalog/surfaces'),
  reorderRoute('group', '/catalog/surfaces/:surface/groups'),
  reorderRoute('channel', '/catalog/surfaces/:surface/groups/:group/channels'),
  ...routesFor('surface', '/catalog/surfaces', 'surface', ADMIN),
  ...routesFor('group', '/catalog/surfaces/:surface/groups', 'group', ADMIN),
  ...routesFor('channel', '/catalog/surfaces/:surface/groups/:group/channels', 'channel', ADMIN),
  ...routesFor('platform', '/catalog/platforms', 'platform', ['catalog.manage']),
  ...routesFor('facet', '/catalog/facets', 'facet', ['catalog.manage']),
]
