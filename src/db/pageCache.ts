/**
 * A content store's whole pages (rows and total) by query, per data version. Lists are kept at
 * once: every client opens the same feeds. Text searches are kept from their second ask, as the
 * service keeps their serialized answers (src/services/content): most searches are asked once,
 * and a page of records kept for each one fills the old generation with rows nobody reads again
 * and brings its collections sooner. A search's second ask reads its rows again (its ranked
 * order, the costly part, has a cache of its own).
 */
import type { ContentListQuery, ContentPage } from './contentTypes'
import { VersionedCache } from './versionedCache'

/**
 * At most `maxPages` pages of each kind, holding at most `maxRows` rows. `suffix` names a view's
 * caches apart (each view keys on its own generation: src/db/versionDomains).
 */
export function pageCache(maxPages: number, maxRows: number, suffix = '') {
  const rowsOf = (p: ContentPage) => p.rows.length + 1
  const lists = new VersionedCache<ContentPage>(`content_pages${suffix}`, maxPages, maxRows, rowsOf)
  const searches = new VersionedCache<ContentPage>(`search_pages${suffix}`, maxPages, maxRows, rowsOf, { keepOnSecondAsk: true })
  return (version: string, q: ContentListQuery, read: () => Promise<ContentPage>): Promise<ContentPage> =>
    (q.text ? searches : lists).get(version, JSON.stringify(q), read)
}
