import { z } from 'zod'

import { defineRoute } from '../src/api/route'
import { parseWith } from '../src/api/validation'
import { createTag, renameTag, updateTag } from '../src/services/tagWrites'

const label = z.string().trim().min(1).max(120)
const facet = z.string().min(1).max(64)

const createBody = z.strictObject({ label, facet, slug: z.string().optional() })
const patchBody = z.strictObject({ label: label.optional(), facet: facet.optional() })
const renameBody = z.strictObject({ newSlug: z.string() })

export const createTagRoute = defineRoute({
  method: 'post',
  path: '/tags',
  permissions: ['tag.manage'],
  handler: async ({ req, body }) => ({ status: 201, data: await createTag(req.payload, parseWith(createBody, await body())) }),
})

export const updateTagRoute = defineRoute({
  method: 'patch',
  path: '/tags/:slug',
  permissions: ['tag.manage'],
  handler: async ({ req, params, body }) => ({ data: await updateTag(req.payload, params.slug!, parseWith(patchBody, await body())) }),
})

export const renameTagRoute = defineRoute({
  method: 'post',
  path: '/tags/:slug/rename',
  permissions: ['tag.manage'],
  handler: async ({ req, params, body, user }) => {
    const { newSlug } = parseWith(renameBody, await body())
    return { data: await renameTag(req.payload, params.slug!, newSlug, { actorId: user?.id ?? null }) }
  },
})
