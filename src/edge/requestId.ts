import { randomBytes } from 'node:crypto'
import { encodeTime } from 'ulid'

import type { HeaderReader } from './headers'

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
  // 80 bits, most significant first, five at a time: 16 Crockford characters.
  let random = ''
  let acc = 0
  let bits = 0
  for (const b of random10()) {
    acc = ((acc << 8) | b) & 0xfff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      random += CROCKFORD[(acc >> bits) & 31]
    }
  }
  return encodeTime(now, 10) + random
}

/** The caller's X-Request-Id when it is a sane token, else a fresh `req_<ulid>`. */
export function requestIdFrom(headers: HeaderReader): string {
  const given = headers.get('x-request-id')
  return given && ACCEPTABLE.test(given) ? given : `req_${fastUlid()}`
}
