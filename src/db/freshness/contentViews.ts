/**
 * The two views of content a read can ask for, each cached apart under its own generation
 * (./versionDomains): what the public sees (approved, active rows), which moves only when a
 * public row is written, and everything else (moderators' lists: pending, rejected, deleted
 * rows), which moves on every content write. A cache keeps one generation at a time, so each
 * view has its own caches.
 */
import type { ContentFilter } from '../contentTypes'
import type { Domain } from './versionDomains'

export type ContentView = 'public' | 'all'

/** Approved, active rows only: the public's view (and the per-term ranking's rows). */
export const isPublicView = (q: Pick<ContentFilter, 'statuses' | 'includeInactive'>): boolean =>
  !q.includeInactive && q.statuses !== 'all' && q.statuses.length === 1 && q.statuses[0] === 'approved'

export const viewOf = (q: Pick<ContentFilter, 'statuses' | 'includeInactive'>): ContentView => (isPublicView(q) ? 'public' : 'all')

/** The generation a view's cached values key on. */
export const VIEW_DOMAIN: Record<ContentView, Domain> = { public: 'content', all: 'all_content' }

/** One `make` per view, the public one's cache names as they were, the other's with `_all`. */
export function perView<T>(make: (suffix: string) => T): Record<ContentView, T> {
  return { public: make(''), all: make('_all') }
}
