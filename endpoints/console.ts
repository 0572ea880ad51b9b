/**
 * Every console endpoint (Payload collection endpoints under /api/<collection>), by
 * collection. payload.config.ts attaches them: collections never import endpoint handlers.
 */
import type { Endpoint } from 'payload'

import { contentConsoleEndpoints } from './adminModeration'
import { moderationEventConsoleEndpoints } from './adminModerationEvents'
import { tagConsoleEndpoints } from './adminTags'
import { taxonomyConsoleEndpoints } from './adminTaxonomy'
import { userConsoleEndpoints } from './consoleSession'

export const consoleEndpoints: Record<string, Endpoint[]> = {
  users: userConsoleEndpoints,
  content: contentConsoleEndpoints,
  tags: tagConsoleEndpoints,
  surfaces: taxonomyConsoleEndpoints,
  'moderation-events': moderationEventConsoleEndpoints,
}
