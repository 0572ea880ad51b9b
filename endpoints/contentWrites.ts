import { z } from 'zod'

import { defineRoute } from '../src/api/route'
import { parseWith } from '../src/api/validation'
import { rateLimit } from '../src/services/rateLimit'
import { approveContent, rejectContent, restoreContent, softDeleteContent, submitContent } from '../src/services/contentWrites'
import { TEXT_LIMITS, textField } from '../src/text'
import { contentUrlField } from '../src/urlPolicy'


const submitBody = z.strictObject({
  title: textField(TEXT_LIMITS.title, { min: 1, trim: true }),
  url: contentUrlField,
  description: textField(TEXT_LIMITS.description).optional(),
  slug: z.string().optional(),
  tagSlugs: z.array(z.string()).max(50).optional(),
  group: z.string().min(1).optional(),
  channel: z.string().min(1).optional(),
  platform: z.string().min(1).optional(),
})

const rejectBody = z.strictObject({ reason: textField(TEXT_LIMITS.reason, { trim: true }).optional() })

export const submitContentRoute = defineRoute({
  method: 'post',
  path: '/content/submit',
  auth: 'required',
  before: rateLimit('submit'),
  handler: async ({ req, body, user }) => ({
    status: 201,
    data: await submitContent(req.payload, parseWith(submitBody, await body()), user!),
  }),
})

export const approveContentRoute = defineRoute({
  method: 'post',
  path: '/content/:slug/approve',
  permissions: ['content.approve'],
  handler: async ({ req, params, user }) => ({ data: await approveContent(req.payload, params.slug!, user) }),
})

export const rejectContentRoute = defineRoute({
  method: 'post',
  path: '/content/:slug/reject',
  permissions: ['content.approve'],
  handler: async ({ req, params, body, user }) => {
    const { reason } = parseWith(rejectBody, await body())
    return { data: await rejectContent(req.payload, params.slug!, reason || null, user) }
  },
})

export const deleteContentRoute = defineRoute({
  method: 'delete',
  path: '/content/:slug',
  permissions: ['content.delete'],
  handler: async ({ req, params, user }) => ({ data: await softDeleteContent(req.payload, params.slug!, user) }),
})

/** Undoes a soft delete (the same permission as the delete); recorded in the audit trail. */
export const restoreContentRoute = defineRoute({
  method: 'post',
  path: '/content/:slug/restore',
  permissions: ['content.delete'],
  handler: async ({ req, params, user }) => ({ data: await restoreContent(req.payload, params.slug!, user) }),
})
