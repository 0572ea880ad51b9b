import { z } from 'zod'

import { defineRoute } from '../src/edge/route'
import { listModerationEvents } from '../src/services/moderationEvents'
import { ModerationEventDto } from './dtos'
import { moderationEventsQuery } from './queries'

/** The moderation audit trail, newest first: filters action, actor, target, from, to; offset/limit. */
export const moderationEventsRoute = defineRoute({
  method: 'get',
  path: '/moderation/events',
  permissions: ['content.moderate'],
  summary: 'The moderation audit trail, newest first',
  // Each parameter's own rule refuses control characters, with its constraint.
  request: { query: moderationEventsQuery, queryOptions: { controlCharacters: false } },
  responses: { data: z.array(ModerationEventDto), paginated: true, errors: ['pagination.invalid', 'validation.failed'] },
  handler: async ({ req, input }) => {
    const { offset, limit, ...filters } = input.query
    const { data, pagination } = await listModerationEvents(req.payload, filters, offset, limit)
    return { data, pagination }
  },
})
