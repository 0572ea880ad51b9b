/*
 * /openapi.json and /docs under Next (next dev, `next start`): the same answers server.ts
 * gives (endpoints/reference), outside /api/v1 and its envelope.
 */
import { answerReference } from '../endpoints/reference'
import { toResponse } from '../src/edge/fetchAdapter'

export async function answerReferenceRequest(request: Request): Promise<Response> {
  const result = await answerReference(request.method, new URL(request.url).pathname, request.headers)
  if (!result) return new Response('Not found', { status: 404 })
  return toResponse(result)
}
