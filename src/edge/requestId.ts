import { randomBytes } from 'node:crypto'
import { encodeTime } from 'ulid'

import type { HeaderReader } from './headers'

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

// Random bytes are drawn from the CSPRNG in blocks: one system call per 400 ids, not per id.
const POOL_IDS = 400
let pool = Buffer.alloc(0)
let offset = 0

let timeAt = -1
let timeText = ''

/** A ULID: 48-bit time plus 80 random bits (ulid's own reads the CSPRNG once per character). */
export function fastUlid(now = Date.now()): string {
  // The time part changes once a millisecond; most ids reuse it.
  if (now !== timeAt) {
    timeAt = now
    timeText = encodeTime(now, 10)
  }
  if (offset + 10 > pool.length) {
    pool = randomBytes(10 * POOL_IDS)
    offset = 0
  }
  const at = offset
  offset += 10
  return timeText + base32Of40Bits(pool, at) + base32Of40Bits(pool, at + 5)
}

/** Five bytes, most significant first, as eight Crockford characters (5 bits each). */
function base32Of40Bits(b: Buffer, i: number): string {
  const b0 = b[i]!
  const b1 = b[i + 1]!
  const b2 = b[i + 2]!
  const b3 = b[i + 3]!
  const b4 = b[i + 4]!
  return (
    CROCKFORD[b0 >> 3]! +
    CROCKFORD[((b0 & 7) << 2) | (b1 >> 6)]! +
    CROCKFORD[(b1 >> 1) & 31]! +
    CROCKFORD[((b1 & 1) << 4) | (b2 >> 4)]! +
    CROCKFORD[((b2 & 15) << 1) | (b3 >> 7)]! +
    CROCKFORD[(b3 >> 2) & 31]! +
    CROCKFORD[((b3 & 3) << 3) | (b4 >> 5)]! +
    CROCKFORD[b4 & 31]!
  )
}

/** The caller's X-Request-Id when it is a sane token, else a fresh `req_<ulid>`. */
export function requestIdFrom(headers: HeaderReader): string {
  const given = headers.get('x-request-id')
  return given && ACCEPTABLE.test(given) ? given : `req_${fastUlid()}`
}
