/**
 * Fetch Request/Response <-> the API's transport-neutral request and result: the Next routes
 * (/api/v1 under next dev or next start, the console's endpoints through Payload's REST
 * handler) and the in-process tests go this way.
 */
import type { Payload } from 'payload'

import type { HeaderReader } from './headers'
import { type ApiRequest, type ApiResult, wholeBody } from './route'
import { bodyTooLarge } from '../platform/errors'

/**
 * The request's headers without Accept-Encoding: an answer that leaves through Next or
 * Payload's REST handler stays plain, because that code keeps the body but not every header
 * (Payload's handler drops Content-Encoding, which would leave the client bytes it cannot read).
 * Next compresses such answers itself as its `compress` option says; the Node server
 * (./nodeAdapter) compresses the ones it writes.
 */
const withoutAcceptEncoding = (headers: Headers): HeaderReader => ({
  get: (name) => (name.toLowerCase() === 'accept-encoding' ? null : headers.get(name)),
})

/** What the adapter reads of a Fetch Request (Payload's endpoint request is one, typed as partial). */
export type FetchRequestLike = { url: string; method: string; headers: Headers; text(): Promise<string> }

export function apiRequestFromFetch(request: FetchRequestLike, payload: Payload): ApiRequest {
  const url = new URL(request.url)
  let body: Promise<string> | undefined
  return {
    payload,
    method: request.method,
    path: url.pathname.slice('/api'.length),
    search: url.search.slice(1),
    origin: url.origin,
    headers: withoutAcceptEncoding(request.headers),
    text: (limit: number) =>
      (body ??= (async () => {
        if (Number(request.headers.get('content-length') ?? 0) > limit) throw bodyTooLarge(limit)
        const text = await request.text()
        if (Buffer.byteLength(text) > limit) throw bodyTooLarge(limit)
        return text
      })()),
  }
}

export function toResponse(result: ApiResult): Response {
  return new Response(result.body === null ? null : wholeBody(result.body), { status: result.status, headers: result.headers })
}
