/**
 * The taxonomy as editors think of it: surfaces → groups → channels in display order, with
 * colours and active state. Holders of catalog.manage edit it in place (TaxonomyTreeEditor:
 * drag or keyboard reorder, activate/deactivate, add a child); others read it.
 */
import type { AdminViewServerProps } from 'payload'
import React from 'react'

import { permissionsOf } from '../../../../access/userPermissions'
import { ConsolePage } from './ConsolePage'
import { TaxonomyTreeEditor } from './TaxonomyTreeEditor'
import type { TreeKind, TreeNode } from './taxonomyTreeTypes'

type Row = { id: string | number; slug?: unknown; label?: unknown; color?: unknown; accentColor?: unknown; isActive?: unknown; displayOrder?: unknown; surface?: unknown; group?: unknown }

const idOf = (v: unknown): string | null => (v && typeof v === 'object' ? String((v as { id: unknown }).id) : v == null ? null : String(v))

function toNode(kind: TreeKind, row: Row): TreeNode {
  return {
    kind,
    id: String(row.id),
    slug: String(row.slug ?? ''),
    label: String(row.label ?? ''),
    color: typeof row.accentColor === 'string' ? row.accentColor : typeof row.color === 'string' ? row.color : null,
    isActive: row.isActive !== false,
    displayOrder: typeof row.displayOrder === 'number' ? row.displayOrder : 0,
    parentId: kind === 'group' ? idOf(row.surface) : kind === 'channel' ? idOf(row.group) : null,
  }
}

export async function TaxonomyTreeView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const load = async (collection: 'surfaces' | 'groups' | 'channels') =>
    (await req.payload.find({ collection, sort: 'displayOrder', pagination: false, depth: 0, overrideAccess: false, user: req.user })).docs as unknown as Row[]
  const [surfaces, groups, channels] = await Promise.all([load('surfaces'), load('groups'), load('channels')])
  const nodes = [
    ...surfaces.map((r) => toNode('surface', r)),
    ...groups.map((r) => toNode('group', r)),
    ...channels.map((r) => toNode('channel', r)),
  ]
  return (
    <ConsolePage initPageResult={initPageResult} params={params} searchParams={searchParams} title="Taxonomy">
      <TaxonomyTreeEditor initial={nodes} canManage={permissionsOf(req).includes('catalog.manage')} />
    </ConsolePage>
  )
}
