import { z } from 'zod'

import { rateLimit } from '../src/edge/rateLimitGate'
import { defineRoute } from '../src/edge/route'
import { approveContent, rejectContent, restoreContent, softDeleteContent, submitContent } from '../src/services/contentWrites'
import { rejectBody, submitBody } from '../src/services/requestBodies'
import { ContentDto, Deleted } from './dtos'

export { rejectBody }

export const submitContentRoute = defineRoute({
  method: 'post',
  path: '/content/submit',
  summary: 'Submit content; it waits as pending',
  request: { body: submitBody },
  responses: {
    data: ContentDto,
    status: 201,
    rateLimited: true,
    errors: ['content.submissions_closed', 'content.duplicate', 'slug.conflict', 'slug.reserved', 'tag.not_found', 'group.not_found', 'channel.not_found', 'platform.not_found'],
  },
  auth: 'required',
  before: rateLimit('submit'),
  handler: async ({ req, user, input }) => ({
    status: 201,
    data: await submitContent(req.payload, input.body, user!),
  }),
})

export const approveContentRoute = defineRoute({
  method: 'post',
  path: '/content/:slug/approve',
  summary: 'Approve pending content',
  responses: { data: ContentDto, errors: ['content.not_found', 'content.state_invalid', 'content.conflict'] },
  permissions: ['content.approve'],
  handler: async ({ req, params, user }) => ({ data: await approveContent(req.payload, { slug: params.slug! }, user) }),
})

export const rejectContentRoute = defineRoute({
  method: 'post',
  path: '/content/:slug/reject',
  summary: 'Reject pending content, with an optional reason',
  request: { body: rejectBody },
  responses: { data: ContentDto, errors: ['content.not_found', 'content.state_invalid', 'content.conflict'] },
  permissions: ['content.approve'],
  handler: async ({ req, params, user, input }) => {
    const { reason } = input.body
    return { data: await rejectContent(req.payload, { slug: params.slug! }, reason || null, user) }
  },
})

export const deleteContentRoute = defineRoute({
  method: 'delete',
  path: '/content/:slug',
  summary: 'Soft-delete content (isActive=false)',
  responses: { data: Deleted, errors: ['content.not_found', 'content.conflict'] },
  permissions: ['content.delete'],
  handler: async ({ req, params, user }) => ({ data: await softDeleteContent(req.payload, { slug: params.slug! }, user) }),
})

/** Undoes a soft delete (the same permission as the delete); recorded in the audit trail. */
export const restoreContentRoute = defineRoute({
  method: 'post',
  path: '/content/:slug/restore',
  summary: 'Undo a soft delete',
  responses: { data: ContentDto, errors: ['content.not_found', 'content.conflict'] },
  permissions: ['content.delete'],
  handler: async ({ req, params, user }) => ({ data: await restoreContent(req.payload, { slug: params.slug! }, user) }),
})
