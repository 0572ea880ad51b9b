/**
 * The mixed row's hostile phase: requests that once held a worker's event loop for 0.4-10 s, each
 * at the largest input the limits allow now (issue 52.1; test/security/boundedWork.test.ts holds
 * each one's CPU), sent beside the read mix. Every one is answered 4xx; the phase reports the
 * server's longest event-loop delay while they arrive.
 */
import { suggestSlugBody } from '../endpoints/slug'
import { routeBodyLimit } from '../src/edge/bodyBound'

export type HostileRequest = { name: string; method: string; path: string; headers?: Record<string, string>; body?: Buffer; status: number }

const repeat = (count: number, make: (i: number) => string, joiner: string) => Array.from({ length: count }, (_, i) => make(i)).join(joiner)

const part = '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n'
const distinctKeys = () => {
  const keys: string[] = []
  for (let i = 0; keys.join(',').length < 128 * 1024 - 200; i++) keys.push(`"k${i}":0`)
  return `{${keys.join(',')}}`
}
/** Control characters up to `bytes`, in a body of the slug suggestion's shape plus one member it does not declare. */
const controlStrings = (bytes: number) => {
  const values: string[] = []
  for (let i = 0; values.join(',').length < bytes - 60; i++) values.push(`"\\b${i}"`)
  return `{"value":"a","entity":"content","x":[${values.join(',')}]}`
}
/** The largest body the slug suggestion reads (src/edge/bodyBound): its own bound, not the server's 128 KiB. */
const SUGGEST_LIMIT = routeBodyLimit(suggestSlugBody, 128 * 1024)

export const HOSTILE_REQUESTS: HostileRequest[] = [
  {
    name: 'method-override read, a 130 KB form of 4,000 conditions (anonymous)',
    method: 'POST',
    path: '/api/media',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-payload-http-method-override': 'GET' },
    body: Buffer.from(repeat(4000, (i) => `where[or][${i}][alt][equals]=x`, '&').slice(0, 130_000)),
    status: 400,
  },
  { name: 'a sort of 4,000 fields', method: 'GET', path: `/api/media?sort=${repeat(4000, () => 'a', ',')}`, status: 400 },
  { name: 'a like of 3,500 words', method: 'GET', path: `/api/media?where[alt][like]=${repeat(3500, () => 'w', '%20')}`, status: 400 },
  {
    name: 'a multipart form of 1 MiB of tiny parts',
    method: 'POST',
    path: '/api/media',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    body: Buffer.from(part.repeat(Math.floor((1024 * 1024) / part.length)) + '--x--\r\n'),
    status: 400,
  },
  { name: 'JSON of 128 KiB in distinct keys (anonymous upload)', method: 'POST', path: '/api/media', headers: { 'content-type': 'application/json' }, body: Buffer.from(distinctKeys()), status: 403 },
  // The anonymous /api/v1 route read without a rate limit first, at its largest body (was 128 KiB: 19-32 ms).
  { name: `control characters on /api/v1, the largest body the route reads (${SUGGEST_LIMIT} bytes)`, method: 'POST', path: '/api/v1/slug/suggest', headers: { 'content-type': 'application/json' }, body: Buffer.from(controlStrings(SUGGEST_LIMIT)), status: 400 },
  { name: '128 KiB of control characters on /api/v1, refused unread', method: 'POST', path: '/api/v1/slug/suggest', headers: { 'content-type': 'application/json' }, body: Buffer.from(controlStrings(128 * 1024)), status: 413 },
  // Within Node's 16 KiB of headers beside fetch's own.
  { name: 'a Cookie header of 3,500 undecodable pairs', method: 'GET', path: '/api/media?limit=1', headers: { cookie: repeat(3500, () => 'a=%', ';') }, status: 400 },
]

/** Sends the request; its status, or 0 when it failed in transit. */
export async function sendHostile(base: string, request: HostileRequest): Promise<number> {
  try {
    const res = await fetch(`${base}${request.path}`, { method: request.method, headers: request.headers, body: request.body ? new Uint8Array(request.body) : undefined })
    await res.arrayBuffer()
    return res.status
  } catch {
    return 0
  }
}
