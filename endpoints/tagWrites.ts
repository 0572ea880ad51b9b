import { z } from 'zod'

import { defineRoute } from '../src/edge/route'
import { createTag, renameTag, updateTag } from '../src/services/tagWrites'
import { createTagBody as createBody, patchTagBody as patchBody, renameBody } from '../src/services/requestBodies'
import { TagDto, TagRename } from './dtos'

export { renameBody }

export const createTagRoute = defineRoute({
  method: 'post',
  path: '/tags',
  summary: 'Create a tag',
  request: { body: createBody },
  responses: { data: TagDto, status: 201, errors: ['slug.conflict', 'slug.reserved', 'facet.not_found'] },
  permissions: ['tag.manage'],
  handler: async ({ req, input }) => ({ status: 201, data: await createTag(req.payload, input.body) }),
})

export const updateTagRoute = defineRoute({
  method: 'patch',
  path: '/tags/:slug',
  summary: 'Update a tag (label, facet)',
  request: { body: patchBody },
  responses: { data: TagDto, errors: ['tag.not_found', 'facet.not_found'], versioned: true },
  permissions: ['tag.manage'],
  handler: async ({ req, params, input, ifMatch }) => {
    const { tag, version } = await updateTag(req.payload, params.slug!, input.body, ifMatch)
    return { data: tag, version }
  },
})

export const renameTagRoute = defineRoute({
  method: 'post',
  path: '/tags/:slug/rename',
  summary: 'Rename a tag: every item follows, audited',
  request: { body: renameBody },
  responses: { data: TagRename, errors: ['tag.not_found', 'slug.conflict', 'slug.reserved'] },
  permissions: ['tag.manage'],
  handler: async ({ req, params, user, input }) => {
    const { newSlug } = input.body
    return { data: await renameTag(req.payload, { slug: params.slug! }, newSlug, { actorId: user?.id ?? null }) }
  },
})
