import { decodeTime } from 'ulid'
import { describe, expect, it } from 'vitest'

import { fastUlid, requestIdFrom } from '../src/edge/requestId'

describe('request ids', () => {
  it('are ULIDs that decode to their time and differ every call', () => {
    const now = Date.UTC(2026, 10, 23, 7, 0, 0)
    const id = fastUlid(now)
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(decodeTime(id)).toBe(now)
    const many = new Set(Array.from({ length: 1000 }, () => fastUlid(now)))
    expect(many.size).toBe(1000)
  })

  it('spend all 80 random bits: every random character takes every one of the 32 digits', () => {
    const ids = Array.from({ length: 4000 }, () => fastUlid())
    for (let position = 10; position < 26; position++) {
      const seen = new Set(ids.map((id) => id[position]))
      expect(seen.size, `character ${position}`).toBe(32)
    }
    // The time part follows the clock from one millisecond to the next.
    expect(decodeTime(fastUlid(1_000))).toBe(1_000)
    expect(decodeTime(fastUlid(1_001))).toBe(1_001)
  })

  it('keep a sane caller id and replace anything else', () => {
    expect(requestIdFrom(new Headers({ 'x-request-id': 'abc-123' }))).toBe('abc-123')
    expect(requestIdFrom(new Headers({ 'x-request-id': 'x'.repeat(129) }))).toMatch(/^req_/)
    expect(requestIdFrom(new Headers({ 'x-request-id': '<script>' }))).toMatch(/^req_/)
    expect(requestIdFrom(new Headers())).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/)
  })
})
