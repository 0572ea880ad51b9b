import { z } from 'zod'

import { defineRoute } from '../src/api/route'
import { parseWith } from '../src/api/validation'
import { rateLimit } from '../src/services/rateLimit'
import { approveContent, rejectContent, softDeleteContent, submitContent } from '../src/services/contentWrites'

const httpUrl = z.url({ protocol: /^https?$/ })

const submitBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  url: httpUrl,
  description: z.string().max(2000).optional(),
  slug: z.string().optional(),
  tagSlugs: z.array(z.string()).max(50).optional(),
  group: z.string().min(1).optional(),
  channel: z.string().min(1).optional(),
  platform: z.string().min(1).optional(),
})

const rejectBody = z.strictObject({ reason: z.string().trim().max(500).optional() })

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
  handler: async ({ req, params }) => ({ data: await softDeleteContent(req.payload, params.slug!) }),
})
