import { z } from 'zod'

import { defineRoute } from '../src/edge/route'
import { SLUG_ENTITIES, suggest } from '../src/platform/slug'
import { TEXT_LIMITS, textField } from '../src/platform/text'
import { SlugSuggestion } from './dtos'

export const suggestSlugBody = z.object({ value: textField(TEXT_LIMITS.slugValue, { min: 1 }), entity: z.enum(SLUG_ENTITIES) }).strict()

export const suggestSlugRoute = defineRoute({
  method: 'post',
  path: '/slug/suggest',
  summary: 'Suggest a slug for a value (uniqueness is not checked)',
  request: { body: suggestSlugBody },
  responses: { data: SlugSuggestion },
  handler: async (ctx) => ({ data: suggest(ctx.input.body.value) }),
})
