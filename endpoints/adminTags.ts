/**
 * The console's tag rename on `tags`, signed in by the console session, guarded by
 * tag.manage, calling the same service as the API with the tag's id.
 * GET /api/tags/rename/<id> tells how many items a rename would touch; POST renames.
 */
import { consoleEndpoint } from '../src/edge/consoleEndpoint'
import { renameImpact, renameTag } from '../src/services/tagWrites'
import { renameBody } from './tagWrites'

export const tagConsoleEndpoints = [
  consoleEndpoint('tags', {
    method: 'get',
    path: '/rename/:id',
    permissions: ['tag.manage'],
    handler: async ({ req, params }) => ({ data: { contentCount: await renameImpact(req.payload, { id: params.id! }) } }),
  }),
  consoleEndpoint('tags', {
    method: 'post',
    path: '/rename/:id',
    permissions: ['tag.manage'],
    request: { body: renameBody },
    handler: async ({ req, params, user, input }) => {
      const { newSlug } = input.body
      return { data: await renameTag(req.payload, { id: params.id! }, newSlug, { actorId: user!.id }) }
    },
  }),
]
