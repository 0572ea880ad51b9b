/**
 * The moderation queue: pending submissions, newest first, with approve, reject with a
 * reason, and bulk approve. Server component: it reads through Payload with the signed-in
 * user's permissions; the actions go to the content collection's moderation endpoint, which
 * calls the same service as the API.
 */
import type { AdminViewServerProps } from 'payload'
import React from 'react'

import { ConsolePage } from './ConsolePage'

import { permissionsOfUser } from '../../../../access/userPermissions'
import { ModerationList, type QueueRow } from './ModerationList'

const label = (v: unknown, key: string): string | null =>
  v && typeof v === 'object' ? String((v as Record<string, unknown>)[key] ?? '') : null

export async function ModerationQueueView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const held = permissionsOfUser(req.user as never)
  const canRead = held.includes('content.moderate')
  let rows: QueueRow[] = []
  let total = 0
  if (canRead) {
    const pending = await req.payload.find({
      collection: 'content',
      where: { status: { equals: 'pending' }, isActive: { equals: true } },
      sort: '-createdAt',
      depth: 1,
      limit: 100,
      overrideAccess: true,
    })
    total = pending.totalDocs
    rows = pending.docs.map((d) => {
      const doc = d as unknown as Record<string, unknown>
      return {
        id: String(doc.id),
        slug: String(doc.slug),
        title: String(doc.title),
        url: String(doc.url),
        submittedBy: label(doc.submittedBy, 'email'),
        tags: Array.isArray(doc.tagSlugs) ? (doc.tagSlugs as string[]) : [],
        group: label(doc.group, 'label'),
        createdAt: String(doc.createdAt),
      }
    })
  }
  return (
    <ConsolePage initPageResult={initPageResult} params={params} searchParams={searchParams} title="Moderation queue">
        {canRead ? (
          <>
            <p className="moderation-count">
              {total} pending submission{total === 1 ? '' : 's'}
              {total > rows.length ? ` (showing the newest ${rows.length})` : ''}
            </p>
            <ModerationList rows={rows} canApprove={held.includes('content.approve')} />
          </>
        ) : (
          <p>You do not have permission to review submissions.</p>
        )}
    </ConsolePage>
  )
}
