/**
 * The console's landing page tiles (Payload's beforeDashboard slot), each shown only to the
 * permissions that may see it and each linking into the queue or list it summarises. All
 * numbers come from one service call (src/services/dashboard.ts).
 */
import type { Payload } from 'payload'
import React from 'react'

import { me } from '../../../../src/services/auth'
import type { User } from '../../../../payload-types'
import { dashboardData } from '../../../../src/services/dashboard'
import { DecisionsChart } from './DecisionsChart'
import { EventLine } from './EventLine'
import { When } from './When'

const tile: React.CSSProperties = {
  border: '1px solid var(--theme-elevation-150)',
  borderRadius: 6,
  padding: 16,
  background: 'var(--theme-elevation-50)',
  minWidth: 0,
}

export async function Dashboard({ payload, user }: { payload: Payload; user?: User | null }) {
  // The user as handed to components has role ids for a user who may not read roles: read the permissions.
  const held = user ? (await me(payload, String(user.id))).permissions : []
  const data = await dashboardData(payload, held)
  if (!data.pending && !data.topTags && !data.taxonomy) return null
  const totals = data.daily?.reduce((t, d) => ({ approved: t.approved + d.approved, rejected: t.rejected + d.rejected }), { approved: 0, rejected: 0 })
  return (
    <section className="console-dashboard" style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 16, margin: '24px 0' }}>
      {data.pending && (
        <a href="/admin/moderation?sort=oldest" className="dashboard-tile" id="tile-pending" style={{ ...tile, textDecoration: 'none', color: 'inherit' }}>
          <h3 style={{ margin: 0 }}>Pending review</h3>
          <p style={{ fontSize: 40, margin: '8px 0' }} data-testid="pending-count">{data.pending.count}</p>
          <p style={{ margin: 0 }} data-testid="pending-oldest">
            {data.pending.oldestAt ? (
              <>
                Oldest submitted <When iso={data.pending.oldestAt} />
              </>
            ) : (
              'Nothing is waiting.'
            )}
          </p>
        </a>
      )}
      {data.daily && totals && (
        <div className="dashboard-tile" id="tile-decisions" style={{ ...tile, gridColumn: 'span 2' }}>
          <h3 style={{ margin: 0 }}>
            <a href="/admin/audit">Decisions, last 30 days</a>
          </h3>
          <p style={{ margin: '4px 0 8px' }}>
            <span style={{ color: '#16a34a' }}>■</span> <a href="/admin/audit?action=approve">{totals.approved} approved</a>{' '}
            <span style={{ color: '#dc2626' }}>■</span> <a href="/admin/audit?action=reject">{totals.rejected} rejected</a>
          </p>
          <DecisionsChart days={data.daily} />
        </div>
      )}
      {data.topTags && (
        <div className="dashboard-tile" id="tile-tags" style={tile}>
          <h3 style={{ margin: 0 }}>
            <a href="/admin/collections/tags">Top tags</a>
          </h3>
          {data.topTags.length === 0 ? (
            <p>No approved content is tagged yet.</p>
          ) : (
            <ol style={{ margin: '8px 0 0', paddingLeft: 20 }}>
              {data.topTags.map((t) => (
                <li key={t.slug}>
                  <a href={`/admin/collections/content?where[tagSlugs][contains]=${encodeURIComponent(t.slug)}`}>{t.label}</a> · {t.usageCount}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
      {data.taxonomy && (
        <div className="dashboard-tile" id="tile-taxonomy" style={tile}>
          <h3 style={{ margin: 0 }}>{data.taxonomy.editsTree ? <a href="/admin/taxonomy">Taxonomy</a> : 'Taxonomy'}</h3>
          <ul style={{ listStyle: 'none', padding: 0, margin: '8px 0 0', lineHeight: 1.8 }}>
            <li>
              {data.taxonomy.surfaces} surface{data.taxonomy.surfaces === 1 ? '' : 's'}, {data.taxonomy.groups} group{data.taxonomy.groups === 1 ? '' : 's'}, {data.taxonomy.channels} channel
              {data.taxonomy.channels === 1 ? '' : 's'}
              {data.taxonomy.editsTree && (
                <>
                  {' · '}
                  <a href="/admin/taxonomy">edit the tree</a>
                </>
              )}
            </li>
            <li>
              <a href="/admin/collections/tags">{data.taxonomy.tags} tags</a>
              {data.taxonomy.managesTags && (
                <>
                  {' · '}
                  <a href="/admin/collections/tag-renames">renames</a>
                </>
              )}
            </li>
            {data.taxonomy.editsTree && (
              <li>
                <a href="/admin/collections/platforms">{data.taxonomy.platforms} platforms</a> · <a href="/admin/globals/branding">branding</a>
              </li>
            )}
          </ul>
        </div>
      )}
      {data.recent && (
        <div className="dashboard-tile" id="tile-activity" style={tile}>
          <h3 style={{ margin: 0 }}>
            <a href="/admin/audit">Recent moderation activity</a>
          </h3>
          {data.recent.length === 0 ? (
            <p>No moderation yet.</p>
          ) : (
            <ul style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
              {data.recent.map((e) => (
                <li key={e.id} style={{ marginBottom: 4 }}>
                  <EventLine event={e} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  )
}
