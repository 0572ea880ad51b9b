/**
 * A content store's whole pages (rows and total) by query, per data version. Lists are kept at
 * once: every client opens the same feeds. Text searches are kept from their second ask, as the
 * service keeps their serialized answers (src/services/content): most searches are asked once,
 * and a page of records kept for each one fills the old generation with rows nobody reads again
 * and brings its collections sooner. A search's second ask reads its rows again (its ranked
 * order, the costly part, has a cache of its own).
 */
import type { ContentListQuery, ContentPage } from '../contentTypes'
import type { RowFreshness, RowStamp } from './generations'
import { VersionedCache } from './versionedCache'

/** A page, stamped with the rows it shows (./generations). */
type Kept = RowStamp & { page: ContentPage }

/**
 * At most `maxPages` pages of each kind, holding at most `maxRows` rows. `suffix` names a view's
 * caches apart (each view keys on its own generation: src/db/freshness/versionDomains). A page is kept per
 * generation and read again once one of the rows it shows is marked (`rows`).
 */
export function pageCache(maxPages: number, maxRows: number, suffix = '') {
  const rowsOf = (k: Kept) => k.page.rows.length + 1
  const lists = new VersionedCache<Kept>(`content_pages${suffix}`, maxPages, maxRows, rowsOf)
  const searches = new VersionedCache<Kept>(`search_pages${suffix}`, maxPages, maxRows, rowsOf, { keepOnSecondAsk: true })
  return async (version: string, q: ContentListQuery, read: () => Promise<ContentPage>, rows: RowFreshness): Promise<ContentPage> => {
    const clock = rows.clock()
    const readKept = async (): Promise<Kept> => {
      const page = await read()
      return { page, ids: page.rows.map((r) => r.id), clock }
    }
    const kept = await (q.text ? searches : lists).get(version, JSON.stringify(q), readKept, (k) => rows.fresh(k))
    return kept.page
  }
}

