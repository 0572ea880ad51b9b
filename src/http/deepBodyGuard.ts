/**
 * Payload's own REST routes and the console endpoints (Next's `api/[...slug]` route, in both
 * serving paths: server.ts hands them to Next) parse request bodies themselves: a JSON body,
 * or the document as JSON in a multipart form's `_payload` field. A body nested deeper than
 * MAX_JSON_DEPTH is refused here, before Payload parses or deep-copies it (a stack overflow,
 * a 500), with the API's envelope: 400 `validation.failed`, constraint `max_depth`.
 */
import { fastUlid } from '../api/requestId'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './jsonDepth'

type RouteHandler<C> = (request: Request, context: C) => Promise<Response>

/** The JSON text a body carries for Payload: the whole body, or a form's `_payload` field. */
async function jsonTextOf(request: Request): Promise<string | undefined> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? ''
  if (request.body === null) return undefined
  if (type.includes('multipart/form-data')) {
    // A malformed form is Payload's to refuse; only a readable _payload is checked here.
    const form = await request.clone().formData().catch(() => undefined)
    const field = form?.get('_payload')
    return typeof field === 'string' ? field : undefined
  }
  if (type.includes('json') || type === '' || type.includes('text/plain')) return request.clone().text()
  return undefined
}

export function refuseDeepBodies<C>(handler: RouteHandler<C>): RouteHandler<C> {
  return async (request, context) => {
    const text = await jsonTextOf(request)
    if (text === undefined || !nestsDeeperThan(text)) return handler(request, context)
    const requestId = `req_${fastUlid()}`
    const body = {
      success: false,
      error: {
        code: 'validation.failed',
        message: `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
        details: [{ field: '(body)', constraint: 'max_depth' }],
      },
      meta: { requestId },
    }
    return Response.json(body, { status: 400, headers: { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' } })
  }
}
