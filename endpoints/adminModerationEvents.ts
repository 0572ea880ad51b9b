/**
 * The console's read of one item's audit events (the content sidebar): GET
 * /api/moderation-events/history/<id>, signed in by the console session, content.moderate.
 */
import { consoleEndpoint } from '../src/edge/consoleEndpoint'
import { listModerationEvents } from '../src/services/moderationEvents'

/** How many of an item's events the sidebar shows. */
const HISTORY_LIMIT = 50

export const moderationEventConsoleEndpoints = [
  consoleEndpoint('moderation-events', {
    method: 'get',
    path: '/history/:id',
    permissions: ['content.moderate'],
    handler: async ({ req, params }) => {
      // Document ids are 24 hex characters on both engines; anything else has no events.
      if (!/^[0-9a-f]{24}$/i.test(params.id!)) return { data: [] }
      const { data } = await listModerationEvents(req.payload, { target: params.id! }, 0, HISTORY_LIMIT)
      return { data }
    },
  }),
]
