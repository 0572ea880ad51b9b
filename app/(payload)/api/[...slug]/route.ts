/*
 * Payload's REST handler: its collection routes, the console endpoints and the admin panel's
 * own calls. Bodies nested too deep are refused before Payload parses them (src/http/deepBodyGuard).
 */
import config from '@payload-config'
import { REST_DELETE, REST_GET, REST_OPTIONS, REST_PATCH, REST_POST, REST_PUT } from '@payloadcms/next/routes'

import { refuseDeepBodies } from '../../../../src/http/deepBodyGuard'

export const GET = REST_GET(config)
export const POST = refuseDeepBodies(REST_POST(config))
export const DELETE = refuseDeepBodies(REST_DELETE(config))
export const PATCH = refuseDeepBodies(REST_PATCH(config))
export const PUT = refuseDeepBodies(REST_PUT(config))
export const OPTIONS = REST_OPTIONS(config)
