import { defineRoute } from '../src/api/route'
import { parsePagination } from '../src/services/contentQuery'
import { listModerationEvents, parseEventFilters } from '../src/services/moderationEvents'

/** The moderation audit trail, newest first: filters action, actor, target, from, to; offset/limit. */
export const moderationEventsRoute = defineRoute({
  method: 'get',
  path: '/moderation/events',
  permissions: ['content.moderate'],
  handler: async ({ req, query }) => {
    const { offset, limit } = parsePagination(query)
    const { data, pagination } = await listModerationEvents(req.payload, parseEventFilters(query), offset, limit)
    return { data, pagination }
  },
})
