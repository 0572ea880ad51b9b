'use client'
/**
 * One way the console shows a time (issue 53.7): relative while recent ("4 min ago", "3 h ago",
 * "yesterday"), the date after that ("28 Nov 2026"), and the exact time on hover and for
 * assistive technology ("28 Nov 2026, 18:23:01 UTC"), the same everywhere: the queue, the
 * dashboard, the audit log, an item's history.
 */
import React from 'react'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
const EXACT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
  timeZone: 'UTC',
})

/** The exact time, as the hover shows it. */
export const exactTime = (iso: string): string => `${EXACT.format(new Date(iso))} UTC`

/** How the console says when something happened, from `now`. */
export function relativeTime(iso: string, now = Date.now()): string {
  const ago = now - Date.parse(iso)
  if (!Number.isFinite(ago)) return '—'
  if (ago < MINUTE) return 'just now'
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`
  if (ago < 2 * DAY) return 'yesterday'
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} days ago`
  return DATE.format(new Date(iso))
}

export function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>
  // The server's "now" and the browser's differ by the page's age: the browser's text wins.
  return (
    <time dateTime={iso} title={exactTime(iso)} suppressHydrationWarning>
      {relativeTime(iso)}
    </time>
  )
}
