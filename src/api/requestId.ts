import { randomBytes } from 'node:crypto'
import { encodeTime } from 'ulid'

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

// Random bytes are drawn from the CSPRNG in blocks: one system call per 400 ids, not per id.
const POOL_IDS = 400
let pool = Buffer.alloc(0)
let offset = 0

function random10(): Buffer {
  if (offset + 10 > pool.length) {
    pool = randomBytes(10 * POOL_IDS)
    offset = 0
  }
  offset += 10
  return pool.subarray(offset - 10, offset)
}

/** A ULID: 48-bit time plus 80 random bits (ulid's own reads the CSPRNG once per character). */
export function fastUlid(now = Date.now()): string {
  const bytes = random10()
  let bits = 0n
  for (const b of bytes) bits = (bits << 8n) | BigInt(b)
  let random = ''
  for (let i = 0; i < 16; i++) {
    random = CROCKFORD[Number(bits & 31n)]! + random
    bits >>= 5n
  }
  return encodeTime(now, 10) + random
}

/** The caller's X-Request-Id when it is a sane token, else a fresh `req_<ulid>`. */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get('x-request-id')
  return given && ACCEPTABLE.test(given) ? given : `req_${fastUlid()}`
}
