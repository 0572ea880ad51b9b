/**
 * The taxonomy as editors think of it: surfaces → groups → channels in display order, with
 * colours and active state. Holders of catalog.manage edit it in place (TaxonomyTreeEditor:
 * drag or keyboard reorder, activate/deactivate, add a child); others read it.
 */
import type { AdminViewServerProps } from 'payload'
import React from 'react'

import { permissionsOf } from '../../../../access/userPermissions'
import type { Channel, Group, Surface } from '../../../../payload-types'
import { ConsolePage } from './ConsolePage'
import { TaxonomyTreeEditor } from './TaxonomyTreeEditor'
import type { TreeNode } from './taxonomyTreeTypes'

/** A relation as read at depth 0 (the id) or deeper (the document). */
const idOf = (v: string | { id: string }): string => (typeof v === 'string' ? v : v.id)

/** The fields every tree node shares, from any of the three collections' documents. */
const common = (row: Surface | Group | Channel) => ({
  id: row.id,
  slug: row.slug,
  label: row.label,
  isActive: row.isActive !== false,
  displayOrder: row.displayOrder,
})

const surfaceNode = (r: Surface): TreeNode => ({ kind: 'surface', ...common(r), color: r.accentColor, parentId: null })
const groupNode = (r: Group): TreeNode => ({ kind: 'group', ...common(r), color: r.color, parentId: idOf(r.surface) })
const channelNode = (r: Channel): TreeNode => ({ kind: 'channel', ...common(r), color: null, parentId: idOf(r.group) })

export async function TaxonomyTreeView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const read = { sort: 'displayOrder', pagination: false, depth: 0, overrideAccess: false, user: req.user } as const
  const [surfaces, groups, channels] = await Promise.all([
    req.payload.find({ collection: 'surfaces', ...read }),
    req.payload.find({ collection: 'groups', ...read }),
    req.payload.find({ collection: 'channels', ...read }),
  ])
  const nodes = [...surfaces.docs.map(surfaceNode), ...groups.docs.map(groupNode), ...channels.docs.map(channelNode)]
  return (
    <ConsolePage initPageResult={initPageResult} params={params} searchParams={searchParams} title="Taxonomy">
      <TaxonomyTreeEditor initial={nodes} canManage={permissionsOf(req).includes('catalog.manage')} />
    </ConsolePage>
  )
}
