/**
 * The codecs under the API's compression: a prefix compressed once and completed per request
 * by a tail (src/edge/splicedCompression) must decode, with zlib's own decoders, to exactly
 * prefix + tail, for any tail; and Accept-Encoding negotiation (src/edge/acceptEncoding)
 * follows RFC 9110's q-value rules.
 */
import { randomBytes } from 'node:crypto'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'

import { negotiateCoding } from '../../src/edge/acceptEncoding'
import { codingFor, MIN_COMPRESSED_BYTES } from '../../src/edge/compression'
import { brotliPrefix, gzipPrefix, tableCrc32 } from '../../src/edge/splicedCompression'

const page = Buffer.from(
  `{"success":true,"data":${JSON.stringify(
    Array.from({ length: 30 }, (_, i) => ({ slug: `item-${i}`, title: `Title ${i} é 漢字 🙂`, description: randomBytes(40).toString('base64') })),
  )},`,
)
const TAIL_LENGTHS = [0, 1, 57, 65_535, 65_536, 65_537, 140_000]
const tailOf = (n: number) => Buffer.from(randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n))

/** A streaming decode, chunk by chunk, as a client reading the socket does. */
function streamDecode(decoder: zlib.Gunzip | zlib.BrotliDecompress, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = []
    decoder.on('data', (c: Buffer) => out.push(c))
    decoder.on('end', () => resolve(Buffer.concat(out)))
    decoder.on('error', reject)
    for (let i = 0; i < bytes.length; i += 7) decoder.write(bytes.subarray(i, i + 7))
    decoder.end()
  })
}

describe('a prefix compressed once, completed by a tail per request', () => {
  for (const [name, make, decode, stream] of [
    ['gzip', () => gzipPrefix(page, 6), zlib.gunzipSync, () => zlib.createGunzip()],
    ['br', () => brotliPrefix(page, 5), zlib.brotliDecompressSync, () => zlib.createBrotliDecompress()],
  ] as const) {
    it(`${name}: decodes to exactly prefix + tail, for tails of any length, from the same compressed prefix`, async () => {
      const spliced = make()
      expect(spliced.size).toBeLessThan(page.length)
      for (const n of TAIL_LENGTHS) {
        const tail = tailOf(n)
        const parts = spliced.complete(tail)
        // The first part is the kept prefix itself, the same object on every request.
        expect(parts[0]).toBe(spliced.complete(tailOf(1))[0])
        const bytes = Buffer.concat(parts)
        expect(decode(bytes).equals(Buffer.concat([page, tail])), `tail of ${n} bytes`).toBe(true)
        expect((await streamDecode(stream(), bytes)).equals(Buffer.concat([page, tail])), `tail of ${n} bytes, streamed`).toBe(true)
      }
    })

    it(`${name}: a completed stream is a whole one (nothing may follow it, nothing is missing)`, () => {
      const bytes = Buffer.concat(make().complete(Buffer.from(',"meta":{"requestId":"r","durationMs":1}}')))
      // Cut short: the decoder reports the stream unfinished.
      expect(() => decode(bytes.subarray(0, bytes.length - 1))).toThrow()
      // gzip's trailer checks the CRC and length over prefix and tail: one flipped tail byte fails it.
      if (name === 'gzip') {
        const bad = Buffer.from(bytes)
        bad[bad.length - 12]! ^= 1
        expect(() => decode(bad)).toThrow()
      }
    })
  }

  it('the table CRC-32 (Node before 20.15) equals zlib.crc32, continued across pieces', () => {
    const a = randomBytes(1000)
    const b = randomBytes(333)
    expect(tableCrc32(a)).toBe(zlib.crc32(a))
    expect(tableCrc32(b, tableCrc32(a))).toBe(zlib.crc32(Buffer.concat([a, b])))
    expect(tableCrc32(Buffer.from('123456789'))).toBe(0xcbf43926)
  })
})

describe('Accept-Encoding negotiation', () => {
  const large = MIN_COMPRESSED_BYTES
  const small = MIN_COMPRESSED_BYTES - 1
  const cases: [string | null, number, 'br' | 'gzip' | null][] = [
    [null, large, null],
    ['', large, null],
    ['gzip, deflate, br, zstd', large, 'br'],
    ['gzip, deflate', large, 'gzip'],
    ['GZIP', large, 'gzip'],
    ['x-gzip', large, 'gzip'],
    ['br;q=0.5, gzip;q=0.8', large, 'gzip'],
    ['br;q=0.8, gzip;q=0.8', large, 'br'],
    ['br;q=0, gzip', large, 'gzip'],
    ['br;q=0, gzip;q=0', large, null],
    ['*', large, 'br'],
    ['*;q=0.5, br;q=0', large, 'gzip'],
    ['deflate, zstd', large, null],
    ['gzip;q=0.5, identity', large, null],
    ['gzip, identity;q=0.5', large, 'gzip'],
    ['br;q=2', large, null],
    ['br;q=abc, gzip', large, 'gzip'],
    [' br ; q=1.000 ', large, 'br'],
    ['gzip, br', small, null],
    ['gzip, identity;q=0', small, 'gzip'],
    ['br, *;q=0', small, 'br'],
    ['*;q=0', large, null],
    ['identity;q=0', large, null],
  ]
  it.each(cases)('%j for %i bytes: %s', (header, size, coding) => {
    expect(codingFor(negotiateCoding(header), size)).toBe(coding)
  })
})
