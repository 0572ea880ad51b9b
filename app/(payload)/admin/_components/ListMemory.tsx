'use client'
/**
 * The way back to a list keeps it as the user left it. Each collection list's query (filter,
 * search, sort, page) is remembered for the browser tab (sessionStorage); a link to that list
 * with no query of its own (the edit view's breadcrumb, the nav) goes back to it. A list the
 * user has not opened yet in this tab starts from its default view: content (which only
 * users who may moderate can list) shows what needs a decision (pending items, oldest first),
 * not Payload's `-approvedAt` order, which puts pending items last. Such a list's bare URL is
 * always replaced, so its rows are not shown until then: the server's render of the bare list
 * (every item, in the wrong order) no longer flashes before the default view.
 */
import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import React, { useEffect } from 'react'

const LIST = /^\/admin\/collections\/([^/]+)\/?$/
const key = (slug: string) => `console.list.${slug}`

/** Where a list opens when the user has not shaped it yet in this tab. */
const DEFAULT_QUERIES: Record<string, string> = { content: '?where%5Bstatus%5D%5Bequals%5D=pending&sort=createdAt' }

/** The rows, the page controls and the empty state of a list (Payload's class names). */
const HIDE_ROWS = '.collection-list__tables, .collection-list .page-controls, .collection-list .no-results { visibility: hidden; }'

function remembered(slug: string): string | null {
  try {
    return sessionStorage.getItem(key(slug))
  } catch {
    return null
  }
}

export function ListMemory({ children }: { children?: React.ReactNode }) {
  const pathname = usePathname()
  const search = useSearchParams()
  const router = useRouter()
  const slug = LIST.exec(pathname)?.[1]

  // Remember each list as it is shown; a bare list URL opens as it was left, or at its default.
  useEffect(() => {
    if (!slug) return
    const query = search.toString()
    if (query) {
      try {
        sessionStorage.setItem(key(slug), `?${query}`)
      } catch {
        /* storage refused: the list still works, it just is not remembered */
      }
      return
    }
    const back = remembered(slug) ?? DEFAULT_QUERIES[slug]
    if (back) router.replace(`${pathname}${back}`)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname, search])

  // A bare list with a default view is replaced on the client, whatever is remembered: its rows stay
  // hidden until the replaced URL's list renders (the server cannot read the tab's memory).
  const replaced = slug !== undefined && DEFAULT_QUERIES[slug] !== undefined && search.toString() === ''
  return (
    <>
      {replaced && <style>{HIDE_ROWS}</style>}
      {children}
    </>
  )
}
