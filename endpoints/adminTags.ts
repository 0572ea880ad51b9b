/**
 * The console's tag rename: Payload collection endpoints on `tags`, authenticated by the
 * console session, guarded by tag.manage, calling the same service as the API.
 * GET /api/tags/rename/<id> tells how many items a rename would touch; POST renames.
 */
import type { Endpoint, PayloadRequest } from 'payload'
import { z } from 'zod'

import { permissionsOf } from '../access/userPermissions'
import { fieldProblems } from '../src/api/validation'
import { ApiError } from '../src/errors'
import { renameImpact, renameTag } from '../src/services/tagWrites'

const body = z.strictObject({ newSlug: z.string() })

async function tagOf(req: PayloadRequest): Promise<{ slug: string }> {
  if (!req.user) throw new ApiError(401, 'auth.missing_token', 'Sign in first.')
  if (!permissionsOf(req).includes('tag.manage')) throw new ApiError(403, 'auth.forbidden', 'You may not manage tags.')
  const id = (req.routeParams as { id: string }).id
  const found = await req.payload.find({ collection: 'tags', where: { id: { equals: id } }, limit: 1, depth: 0, overrideAccess: true })
  const tag = found.docs[0] as unknown as { slug: string } | undefined
  if (!tag) throw new ApiError(404, 'tag.not_found', 'No tag has this id.')
  return tag
}

const answer = async (work: () => Promise<unknown>): Promise<Response> => {
  try {
    return Response.json({ success: true, data: await work() })
  } catch (err) {
    if (!(err instanceof ApiError)) throw err
    return Response.json({ success: false, error: { code: err.code, message: err.message, details: err.details } }, { status: err.status })
  }
}

export const tagConsoleEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/rename/:id',
    handler: (req) => answer(async () => ({ contentCount: await renameImpact(req.payload, (await tagOf(req)).slug) })),
  },
  {
    method: 'post',
    path: '/rename/:id',
    handler: (req) =>
      answer(async () => {
        const tag = await tagOf(req)
        const input = req.json ? await req.json().catch(() => ({})) : {}
        const parsed = body.safeParse(input)
        if (!parsed.success) throw new ApiError(400, 'validation.failed', 'The request is not valid.', fieldProblems(parsed.error, input))
        return renameTag(req.payload, tag.slug, parsed.data.newSlug, { actorId: String(req.user!.id) })
      }),
  },
]
