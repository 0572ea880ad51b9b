/**
 * The admin console's moderation actions: Payload collection endpoints on `content`
 * (POST /api/content/moderation/<id>/approve|reject|delete|restore), authenticated by the console
 * session. They check the same permission as the API (content.approve; content.delete for
 * the soft delete) and call the same service: the console's PATCH cannot move these fields.
 */
import type { Endpoint, PayloadRequest } from 'payload'
import { z } from 'zod'

import { permissionsOf } from '../access/userPermissions'
import { parseWith } from '../src/api/validation'
import { ApiError } from '../src/errors'
import { approveContent, rejectContent, restoreContent, softDeleteContent } from '../src/services/contentWrites'
import { TEXT_LIMITS, textField } from '../src/text'

const rejectBody = z.strictObject({ reason: textField(TEXT_LIMITS.reason, { trim: true }).optional() })

/** Each action and the permission it needs, as on the API's routes. */
const ACTIONS: Record<string, string | undefined> = { approve: 'content.approve', reject: 'content.approve', delete: 'content.delete', restore: 'content.delete' }

function errorResponse(err: unknown): Response {
  if (err instanceof ApiError) {
    return Response.json({ success: false, error: { code: err.code, message: err.message, details: err.details } }, { status: err.status })
  }
  throw err
}

async function handle(req: PayloadRequest): Promise<Response> {
  try {
    const permissions = permissionsOf(req)
    if (!req.user) throw new ApiError(401, 'auth.missing_token', 'Sign in first.')
    const { id, action } = req.routeParams as { id: string; action: string }
    const needed = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined
    if (!needed) throw new ApiError(404, 'route.not_found', 'Unknown action.')
    if (!permissions.includes(needed)) throw new ApiError(403, 'auth.forbidden', `You may not ${action} content.`)
    const found = await req.payload.find({ collection: 'content', where: { id: { equals: id } }, limit: 1, depth: 0, overrideAccess: true })
    const doc = found.docs[0] as unknown as { slug: string } | undefined
    if (!doc) throw new ApiError(404, 'content.not_found', 'No content has this id.')
    const actor = { id: String(req.user.id), permissions }
    if (action === 'delete') return Response.json({ success: true, data: await softDeleteContent(req.payload, doc.slug, actor) })
    if (action === 'restore') return Response.json({ success: true, data: await restoreContent(req.payload, doc.slug, actor) })
    if (action === 'approve') return Response.json({ success: true, data: await approveContent(req.payload, doc.slug, actor) })
    const input = req.json ? await req.json().catch(() => ({})) : {}
    const { reason } = parseWith(rejectBody, input)
    return Response.json({ success: true, data: await rejectContent(req.payload, doc.slug, reason || null, actor) })
  } catch (err) {
    return errorResponse(err)
  }
}

export const contentModerationEndpoints: Endpoint[] = [{ method: 'post', path: '/moderation/:id/:action', handler: handle }]
