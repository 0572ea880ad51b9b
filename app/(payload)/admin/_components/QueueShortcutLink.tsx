'use client'
/** The header's link to the moderation queue and its key, `q` (./QueueShortcut decides who sees it). */
import Link from 'next/link'
import { usePathname, useRouter } from 'next/navigation'
import React, { useEffect, useState } from 'react'

const QUEUE = '/admin/moderation'
const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)

export function QueueShortcutLink() {
  const router = useRouter()
  const pathname = usePathname()
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'q' || e.metaKey || e.ctrlKey || e.altKey || typing(e.target) || pathname === QUEUE) return
      e.preventDefault()
      router.push(QUEUE)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [pathname, router])
  // After the listener above: until hydration `q` does nothing, and `data-keys` says when it will.
  const [ready, setReady] = useState(false)
  useEffect(() => setReady(true), [])
  return (
    <Link
      href={QUEUE}
      className="queue-shortcut btn btn--style-secondary btn--size-small"
      aria-keyshortcuts="q"
      title="Moderation queue (q)"
      style={{ margin: 0 }}
      data-keys={ready ? 'ready' : undefined}
    >
      Queue
    </Link>
  )
}
