/**
 * Every shape a content list query takes (views × filters × sorts), as the store receives it:
 * the index check of the MongoDB queries (test/db/mongoQueries.test.ts) and the explain-plan check
 * on a real server (test/db/mongoExplain.test.ts) walk the same list.
 */
import type { ContentListQuery } from '../../src/db/contentTypes'

const A = '65a1b2c3d4e5f60718293a4b'
const B = '65a1b2c3d4e5f60718293a4c'
const base = { offset: 0, limit: 20, estimate: false }

export const LIST_VIEWS = [
  { name: 'public', statuses: ['approved' as const], includeInactive: false },
  { name: 'pending queue', statuses: ['pending' as const], includeInactive: false },
  { name: 'pending, inactive too', statuses: ['pending' as const], includeInactive: true },
  { name: 'two statuses', statuses: ['approved' as const, 'rejected' as const], includeInactive: false },
  { name: 'status=all', statuses: 'all' as const, includeInactive: false },
  { name: 'status=all, inactive too', statuses: 'all' as const, includeInactive: true },
]

export const LIST_FILTERS: ({ name: string } & Partial<ContentListQuery>)[] = [
  { name: 'no filter' },
  { name: 'one tag', tags: ['ai'] },
  { name: 'two tags', tags: ['ai', 'ml'] },
  { name: 'a group', groupIds: [A] },
  { name: 'a channel', channelIds: [A] },
  { name: 'a platform', platformIds: [A, B] },
  { name: 'a submitter', submittedBy: A },
  { name: 'a period', approvedSince: '2024-05-01T00:00:00.000Z' },
  { name: 'created before', createdBefore: '2024-05-01T00:00:00.000Z' },
  { name: 'short title terms', text: { terms: [], shortTerms: ['ai'] } },
]

export const LIST_SORTS = ['newest', 'oldest', 'alpha', 'submittedNewest', 'submittedOldest', 'relevance'] as const

/** One named shape per view and filter, each with every sort. */
export function listShapes(): { name: string; queries: ContentListQuery[] }[] {
  return LIST_VIEWS.flatMap(({ name: view, ...v }) =>
    LIST_FILTERS.map(({ name: filter, ...f }) => ({
      name: `${view}, ${filter}`,
      queries: LIST_SORTS.map((sort) => ({ ...base, ...v, ...f, sort }) as ContentListQuery),
    })),
  )
}
