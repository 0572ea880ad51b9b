/**
 * The admin console's moderation actions on `content` (POST
 * /api/content/moderation/<id>/approve|reject|delete|restore), signed in by the console session.
 * The same permissions as the API's routes (content.approve; content.delete for the soft
 * delete and its undo), the same services, addressed by id: the console's PATCH cannot move these
 * fields. A decision someone else made first answers as the console's team needs it
 * (src/services/moderationDecisions.ts), and the queue asks what became of its rows
 * (GET /api/content/moderation/status).
 */
import { z } from 'zod'

import { consoleEndpoint } from '../src/edge/consoleEndpoint'
import { restoreContent, softDeleteContent } from '../src/services/contentWrites'
import { decideInConsole, queueStatus } from '../src/services/moderationDecisions'
import { queueFiltersFrom } from '../src/services/moderationQueue'
import { rejectBody } from './contentWrites'

/** The queue's rows to ask about: up to 100 ids. */
const statusQuery = z.object({
  ids: z
    .string()
    .max(100 * 25)
    .transform((v) => v.split(',').filter((id) => /^[0-9a-f]{24}$/.test(id)))
    .optional(),
})

export const contentConsoleEndpoints = [
  consoleEndpoint('content', {
    method: 'post',
    path: '/moderation/:id/approve',
    permissions: ['content.approve'],
    handler: async ({ req, params, user }) => ({ data: await decideInConsole(req.payload, params.id!, 'approve', null, user!) }),
  }),
  consoleEndpoint('content', {
    method: 'post',
    path: '/moderation/:id/reject',
    permissions: ['content.approve'],
    request: { body: rejectBody },
    handler: async ({ req, params, user, input }) => {
      const { reason } = input.body
      return { data: await decideInConsole(req.payload, params.id!, 'reject', reason || null, user!) }
    },
  }),
  consoleEndpoint('content', {
    method: 'get',
    path: '/moderation/status',
    permissions: ['content.moderate'],
    request: { query: statusQuery },
    handler: async ({ req, query, input, user }) => ({
      data: await queueStatus(req.payload, queueFiltersFrom(Object.fromEntries(query)), input.query.ids ?? [], user!),
    }),
  }),
  consoleEndpoint('content', {
    method: 'post',
    path: '/moderation/:id/delete',
    permissions: ['content.delete'],
    handler: async ({ req, params, user }) => ({ data: await softDeleteContent(req.payload, { id: params.id! }, user) }),
  }),
  consoleEndpoint('content', {
    method: 'post',
    path: '/moderation/:id/restore',
    permissions: ['content.delete'],
    handler: async ({ req, params, user }) => ({ data: await restoreContent(req.payload, { id: params.id! }, user) }),
  }),
]
