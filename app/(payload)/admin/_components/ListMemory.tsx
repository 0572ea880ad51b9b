'use client'
/**
 * The way back to a list keeps it as the user left it. Each collection list's query (filter,
 * search, sort, page) is remembered for the browser tab (sessionStorage); a link to that list
 * with no query of its own (the edit view's breadcrumb, the nav) goes back to it. A list the
 * user has not opened yet in this tab starts from its default view: content (which only
 * users who may moderate can list) shows what needs a decision (pending items, oldest first),
 * not Payload's `-approvedAt` order, which puts pending items last.
 */
import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import React, { useEffect } from 'react'

const LIST = /^\/admin\/collections\/([^/]+)\/?$/
const key = (slug: string) => `console.list.${slug}`

/** Where a list opens when the user has not shaped it yet in this tab. */
const DEFAULT_QUERIES: Record<string, string> = { content: '?where%5Bstatus%5D%5Bequals%5D=pending&sort=createdAt' }

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

  // Remember each list as it is shown; a bare list URL opens as it was left, or at its default.
  useEffect(() => {
    const slug = LIST.exec(pathname)?.[1]
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

  return <>{children}</>
}
