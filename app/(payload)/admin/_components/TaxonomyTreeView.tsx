/**
 * The taxonomy as editors think of it: surfaces → groups → channels in display order, with
 * colours and active state, each linking to its edit view.
 */
import type { AdminViewServerProps } from 'payload'
import React from 'react'

import { ConsolePage } from './ConsolePage'

type Row = Record<string, any>

const swatch = (color?: string) => (
  <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 3, background: color ?? '#ccc', marginRight: 6, verticalAlign: 'middle' }} />
)
const inactive = (row: Row) => (row.isActive === false ? <em style={{ opacity: 0.6 }}> (inactive)</em> : null)
const parentId = (v: unknown) => (v && typeof v === 'object' ? String((v as Row).id) : String(v))

export async function TaxonomyTreeView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const load = async (collection: 'surfaces' | 'groups' | 'channels') =>
    (await req.payload.find({ collection, sort: 'displayOrder', limit: 10000, depth: 0, overrideAccess: false, user: req.user })).docs as Row[]
  const [surfaces, groups, channels] = await Promise.all([load('surfaces'), load('groups'), load('channels')])
  return (
    <ConsolePage initPageResult={initPageResult} params={params} searchParams={searchParams} title="Taxonomy">
        <p>Surfaces, their groups and channels in display order. Select any node to edit it.</p>
        <ul className="taxonomy-tree" style={{ listStyle: 'none', paddingLeft: 0 }}>
          {surfaces.map((s) => (
            <li key={s.id} style={{ marginBottom: 16 }}>
              {swatch(s.accentColor)}
              <a href={`/admin/collections/surfaces/${s.id}`}>
                <strong>{s.label}</strong>
              </a>{' '}
              <code>{s.slug}</code> · order {s.displayOrder}
              {inactive(s)}
              <ul style={{ listStyle: 'none', paddingLeft: 24 }}>
                {groups
                  .filter((g) => parentId(g.surface) === String(s.id))
                  .map((g) => (
                    <li key={g.id} style={{ marginTop: 6 }}>
                      {swatch(g.color)}
                      <a href={`/admin/collections/groups/${g.id}`}>{g.label}</a> <code>{g.slug}</code> · order {g.displayOrder}
                      {inactive(g)}
                      <ul style={{ listStyle: 'none', paddingLeft: 24 }}>
                        {channels
                          .filter((c) => parentId(c.group) === String(g.id))
                          .map((c) => (
                            <li key={c.id}>
                              <a href={`/admin/collections/channels/${c.id}`}>{c.label}</a> <code>{c.slug}</code> · order {c.displayOrder}
                              {inactive(c)}
                            </li>
                          ))}
                      </ul>
                    </li>
                  ))}
              </ul>
            </li>
          ))}
        </ul>
    </ConsolePage>
  )
}
