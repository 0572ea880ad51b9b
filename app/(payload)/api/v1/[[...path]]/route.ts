/*
 * /api/v1 under Next (next dev, or a deployment without server.ts): the same dispatcher the
 * production server calls directly. Payload's own REST stays on the sibling [...slug] route.
 */
import config from '@payload-config'
import { getPayload } from 'payload'

import { dispatchApi } from '../../../../../endpoints'
import { apiRequestFromFetch, toResponse } from '../../../../../src/edge/fetchAdapter'

const handle = async (request: Request): Promise<Response> =>
  toResponse(await dispatchApi(apiRequestFromFetch(request, await getPayload({ config }))))

export const GET = handle
export const HEAD = handle
export const POST = handle
export const PUT = handle
export const PATCH = handle
export const DELETE = handle
export const OPTIONS = handle
