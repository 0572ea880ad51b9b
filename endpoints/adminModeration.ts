/**
 * The admin console's moderation actions on `content` (POST
 * /api/content/moderation/<id>/approve|reject|delete|restore), signed in by the console session.
 * The same permissions as the API's routes (content.approve; content.delete for the soft
 * delete and its undo), the same services, addressed by id: the console's PATCH cannot move these fields.
 */
import { consoleEndpoint } from '../src/edge/consoleEndpoint'
import { approveContent, rejectContent, restoreContent, softDeleteContent } from '../src/services/contentWrites'
import { rejectBody } from './contentWrites'

export const contentConsoleEndpoints = [
  consoleEndpoint('content', {
    method: 'post',
    path: '/moderation/:id/approve',
    permissions: ['content.approve'],
    handler: async ({ req, params, user }) => ({ data: await approveContent(req.payload, { id: params.id! }, user) }),
  }),
  consoleEndpoint('content', {
    method: 'post',
    path: '/moderation/:id/reject',
    permissions: ['content.approve'],
    request: { body: rejectBody },
    handler: async ({ req, params, user, input }) => {
      const { reason } = input.body
      return { data: await rejectContent(req.payload, { id: params.id! }, reason || null, user) }
    },
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
