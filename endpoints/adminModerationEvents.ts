/**
 * The console's read of one item's audit events (the content sidebar): GET
 * /api/moderation-events/history/<id>, authenticated by the console session, content.moderate.
 */
import type { Endpoint, PayloadRequest } from 'payload'

import { permissionsOf } from '../access/userPermissions'
import { listModerationEvents } from '../src/services/moderationEvents'

async function history(req: PayloadRequest): Promise<Response> {
  if (!req.user) return Response.json({ success: false, error: { code: 'auth.missing_token', message: 'Sign in first.' } }, { status: 401 })
  if (!permissionsOf(req).includes('content.moderate')) {
    return Response.json({ success: false, error: { code: 'auth.forbidden', message: 'You may not read the audit trail.' } }, { status: 403 })
  }
  const id = String((req.routeParams as { id?: unknown }).id ?? '')
  if (!/^[0-9a-f]{24}$/i.test(id)) return Response.json({ success: true, data: [] })
  const { data } = await listModerationEvents(req.payload, { target: id }, 0, 50)
  return Response.json({ success: true, data })
}

export const moderationEventEndpoints: Endpoint[] = [{ method: 'get', path: '/history/:id', handler: history }]
