/**
 * Query-string parameters of the list routes, for the OpenAPI document. The handlers parse
 * these queries by hand (src/services/contentQuery: each rule answers its own error code),
 * so the schemas are built from the same constants the parsers check against.
 */
import { z } from 'zod'

import { MODERATION_ACTIONS } from '../src/db/moderationEventTypes'
import { LIST_SORTS, PERIODS, RESERVED_SORTS, STATUS_FILTERS } from '../src/services/contentQuery'

const commaSlugs = (what: string) => z.string().meta({ description: `Comma-separated ${what} slugs (OR within the list).` })

/** offset and limit of every paginated list (bounds from PAGINATION_MAX_OFFSET, PAGINATION_MAX_LIMIT). */
export const paginationQuery = z.object({
  offset: z.int().min(0).optional().meta({ description: 'Rows to skip: 0 to PAGINATION_MAX_OFFSET (10000 by default).' }),
  limit: z
    .int()
    .min(0)
    .optional()
    .meta({ description: 'Rows to return: 1 to PAGINATION_MAX_LIMIT (200 by default; default PAGINATION_DEFAULT_LIMIT, 30); 0 counts only.' }),
})

export const listContentQuery = paginationQuery.extend({
  q: z.string().min(2).max(200).optional().meta({ description: 'Text search over title and description.' }),
  tags: commaSlugs('tag').optional(),
  group: z.string().optional().meta({ description: 'A group slug.' }),
  channel: z.string().optional().meta({ description: 'A channel slug; requires group.' }),
  platform: commaSlugs('platform').optional(),
  period: z.enum(Object.keys(PERIODS) as [keyof typeof PERIODS]).optional().meta({ description: 'Window over approvedAt; default all.' }),
  sort: z
    .enum(LIST_SORTS)
    .optional()
    .meta({ description: `Default newest; ${RESERVED_SORTS.join(' and ')} are reserved (400 sort.unsupported).` }),
  status: z.enum(STATUS_FILTERS).optional().meta({ description: 'Default approved; any other needs content.moderate.' }),
  url: z
    .string()
    .optional()
    .meta({ description: 'An absolute http(s) URL: the caller-visible item whose normalised URL is the same ("already submitted?").' }),
  estimate: z.enum(['true', 'false']).optional().meta({ description: 'Allow an approximate total on very large unfiltered lists.' }),
})

/** GET /moderation/events (parsed by src/services/moderationEvents' parseEventFilters). */
export const moderationEventsQuery = paginationQuery.extend({
  action: z.enum(MODERATION_ACTIONS).optional(),
  actor: z.string().optional().meta({ description: 'A user id (24 hexadecimal characters).' }),
  target: z.string().optional().meta({ description: 'The slug or id of the changed document.' }),
  from: z.string().optional().meta({ description: 'Inclusive lower bound: an ISO date or timestamp.' }),
  to: z.string().optional().meta({ description: 'Inclusive upper bound: an ISO date or timestamp.' }),
})
