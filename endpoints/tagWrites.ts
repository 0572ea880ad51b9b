import { z } from 'zod'

import { defineRoute } from '../src/edge/route'
import { parseWith } from '../src/edge/validation'
import { createTag, renameTag, updateTag } from '../src/services/tagWrites'
import { TEXT_LIMITS, textField } from '../src/text'
import { TagDto, TagRename } from './dtos'

const label = textField(TEXT_LIMITS.label, { min: 1, trim: true })
const facet = textField(TEXT_LIMITS.facetKey, { min: 1 })

const createBody = z.strictObject({ label, facet, slug: z.string().optional() })
const patchBody = z.strictObject({ label: label.optional(), facet: facet.optional() })
/** A rename's body, for the API and the console alike. */
export const renameBody = z.strictObject({ newSlug: z.string() })

export const createTagRoute = defineRoute({
  method: 'post',
  path: '/tags',
  summary: 'Create a tag',
  request: { body: createBody },
  responses: { data: TagDto, status: 201, errors: ['slug.conflict', 'slug.reserved', 'facet.not_found'] },
  permissions: ['tag.manage'],
  handler: async ({ req, body }) => ({ status: 201, data: await createTag(req.payload, parseWith(createBody, await body())) }),
})

export const updateTagRoute = defineRoute({
  method: 'patch',
  path: '/tags/:slug',
  summary: 'Update a tag (label, facet)',
  request: { body: patchBody },
  responses: { data: TagDto, errors: ['tag.not_found', 'facet.not_found'] },
  permissions: ['tag.manage'],
  handler: async ({ req, params, body }) => ({ data: await updateTag(req.payload, params.slug!, parseWith(patchBody, await body())) }),
})

export const renameTagRoute = defineRoute({
  method: 'post',
  path: '/tags/:slug/rename',
  summary: 'Rename a tag: every item follows, audited',
  request: { body: renameBody },
  responses: { data: TagRename, errors: ['tag.not_found', 'slug.conflict', 'slug.reserved'] },
  permissions: ['tag.manage'],
  handler: async ({ req, params, body, user }) => {
    const { newSlug } = parseWith(renameBody, await body())
    return { data: await renameTag(req.payload, { slug: params.slug! }, newSlug, { actorId: user?.id ?? null }) }
  },
})
