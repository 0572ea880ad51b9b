/**
 * A body's fixed prefix compressed once, completed per request by a short tail without
 * recompressing the prefix: a cached answer is the same bytes on every hit up to its
 * `meta`, which differs on every request.
 *
 * Both formats allow it exactly. The prefix is compressed with a flush that ends it on a
 * byte boundary without ending the stream; the tail follows as uncompressed (stored) data,
 * then the stream's end:
 * - gzip (RFC 1952/1951): the prefix deflated with Z_SYNC_FLUSH; per request a final stored
 *   block holding the tail, then the trailer: the CRC-32 continued over the tail, and ISIZE.
 * - brotli (RFC 7932): the prefix compressed with BROTLI_OPERATION_FLUSH; per request an
 *   uncompressed meta-block (ISLAST=0, MNIBBLES, MLEN-1, ISUNCOMPRESSED=1, padding, bytes),
 *   then a last, empty meta-block.
 */
import zlib from 'node:zlib'

/**
 * zlib.crc32 (Node 20.15+, 22.2+), else the same CRC-32 from a table: the code runs on Node 20.9+.
 * Empty data continues nothing: Node 20's zlib.crc32 answers 0 for an empty buffer without a
 * backing store (zlib's crc32 of a null pointer), where the running value is the answer.
 */
const crc32: (data: Uint8Array, initial: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === 'function'
    ? (data, initial) => (data.length === 0 ? initial : zlib.crc32(data, initial))
    : tableCrc32

let table: Uint32Array | undefined

/** CRC-32 (the gzip polynomial), continued from `initial`. */
export function tableCrc32(data: Uint8Array, initial = 0): number {
  if (!table) {
    table = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      table[n] = c >>> 0
    }
  }
  let crc = ~initial >>> 0
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8)
  return ~crc >>> 0
}

/**
 * A compressed prefix; `complete(tail)` is a whole stream whose decoding is prefix + tail, as
 * two parts written in turn: the kept prefix itself (never copied) and this request's end (the
 * tail's framing, the tail, the stream's end: small, so it comes from Node's buffer pool and a
 * hit allocates no memory outside the heap).
 */
export type SplicedStream = {
  /** The compressed prefix's size (memory a cache entry holds). */
  readonly size: number
  complete(tail: Buffer): readonly [Buffer<ArrayBuffer>, Buffer<ArrayBuffer>]
}

/** gzip header: magic, deflate, no flags, no mtime, no extra flags, OS unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** A stored block holds at most this many bytes. */
const STORED_MAX = 0xffff

export function gzipPrefix(prefix: Buffer, level: number): SplicedStream {
  const deflated = zlib.deflateRawSync(prefix, { level, finishFlush: zlib.constants.Z_SYNC_FLUSH })
  const head = Buffer.concat([GZIP_HEADER, deflated])
  const prefixCrc = crc32(prefix, 0)
  return {
    size: head.length,
    complete(tail) {
      const blocks = Math.max(1, Math.ceil(tail.length / STORED_MAX))
      const out = Buffer.allocUnsafe(blocks * 5 + tail.length + 8) as Buffer<ArrayBuffer>
      let at = 0
      for (let b = 0; b < blocks; b++) {
        const chunk = tail.subarray(b * STORED_MAX, (b + 1) * STORED_MAX)
        // After a sync flush the stream is byte-aligned: BFINAL and BTYPE=00 fill one byte.
        out[at++] = b === blocks - 1 ? 1 : 0
        out.writeUInt16LE(chunk.length, at)
        out.writeUInt16LE(~chunk.length & 0xffff, at + 2)
        at += 4
        at += chunk.copy(out, at)
      }
      out.writeUInt32LE(crc32(tail, prefixCrc) >>> 0, at)
      out.writeUInt32LE((prefix.length + tail.length) >>> 0, at + 4)
      return [head, out]
    },
  }
}

/** An uncompressed meta-block carries 1 to 65536 bytes here (MNIBBLES = 4). */
const META_BLOCK_MAX = 0x10000
/** ISLAST=1, ISLASTEMPTY=1: the stream's end. */
const BROTLI_END = 0x03

export function brotliPrefix(prefix: Buffer, quality: number): SplicedStream {
  const head = zlib.brotliCompressSync(prefix, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: prefix.length,
    },
    finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
  })
  return {
    size: head.length,
    complete(tail) {
      const blocks = Math.ceil(tail.length / META_BLOCK_MAX)
      const out = Buffer.allocUnsafe(blocks * 3 + tail.length + 1) as Buffer<ArrayBuffer>
      let at = 0
      for (let b = 0; b < blocks; b++) {
        const chunk = tail.subarray(b * META_BLOCK_MAX, (b + 1) * META_BLOCK_MAX)
        // Bits, least significant first: ISLAST=0, MNIBBLES=4 (code 0), MLEN-1 in 16 bits,
        // ISUNCOMPRESSED=1; 20 bits, padded with zeros to 3 bytes.
        const bits = ((chunk.length - 1) << 3) | (1 << 19)
        out[at++] = bits & 0xff
        out[at++] = (bits >>> 8) & 0xff
        out[at++] = (bits >>> 16) & 0xff
        at += chunk.copy(out, at)
      }
      out[at] = BROTLI_END
      return [head as Buffer<ArrayBuffer>, out]
    },
  }
}
