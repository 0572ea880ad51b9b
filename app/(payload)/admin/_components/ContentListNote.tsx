'use client'
/**
 * Above the content list: what the list is showing when it is the moderators' default view
 * (pending items, oldest first: ./ListMemory), and the way to every item. Without it nothing said
 * that the list was filtered (issue 53.9).
 */
import { useSearchParams } from 'next/navigation'
import React from 'react'

export function ContentListNote() {
  const query = useSearchParams()
  const status = query.get('where[status][equals]')
  if (!status) return null
  const oldestFirst = query.get('sort') === 'createdAt'
  return (
    <p className="content-list-note" role="note">
      Showing <strong>{status}</strong> items{oldestFirst ? ', oldest first' : ''}.{' '}
      <a href="/admin/collections/content?sort=-approvedAt&limit=10">Show every item</a>
      {status === 'pending' && (
        <>
          {' · '}
          <a href="/admin/moderation?sort=oldest">Open the queue</a>
        </>
      )}
    </p>
  )
}
