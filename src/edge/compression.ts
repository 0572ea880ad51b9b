/**
 * Response compression for clients that ask (Accept-Encoding: br or gzip): which coding an
 * answer gets, and the compressed bytes. A cached answer (src/platform/serializedAnswer) is compressed
 * once per cache entry and coding, its per-request tail spliced on (./splicedCompression);
 * any other answer is compressed per request at a faster setting. Answers under
 * MIN_COMPRESSED_BYTES stay plain: a coding's framing would eat what it saves.
 */
import zlib from 'node:zlib'

import { type CodingChoice, type ContentCoding, negotiateCoding } from './acceptEncoding'
import { brotliPrefix, gzipPrefix, type SplicedStream } from './splicedCompression'

export type { ContentCoding } from './acceptEncoding'

export const MIN_COMPRESSED_BYTES = 1024

/** Bytes on an ordinary ArrayBuffer (what zlib returns; Fetch's Response takes no shared memory). */
export type Bytes = Buffer<ArrayBuffer>

/**
 * Settings. Once per cache entry: brotli 5 and gzip 6 are cheap on a page and come within a few
 * percent of the slowest settings' size (brotli 11 is two orders of magnitude dearer, which a
 * write that renews every entry would pay once per hot page; docs/benchmarks.md, *Measurements behind the code*). Per request:
 * one step faster.
 */
const ONCE = { br: 5, gzip: 6 } as const
const PER_REQUEST = { br: 4, gzip: 4 } as const

/** The coding for an answer of `size` bytes, or null for plain. */
export function codingFor(choice: CodingChoice, size: number): ContentCoding | null {
  if (choice.coding === null) return null
  if (choice.identityAcceptable && (choice.prefersIdentity || size < MIN_COMPRESSED_BYTES)) return null
  return choice.coding
}

/** The coding the request's Accept-Encoding gets for `size` bytes. */
export const codingForRequest = (acceptEncoding: string | null, size: number): ContentCoding | null =>
  codingFor(negotiateCoding(acceptEncoding), size)

/** A whole body compressed now (answers no cache keeps). */
export function compressBody(body: Buffer, coding: ContentCoding): Bytes {
  const compressed = coding === 'br'
    ? zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: PER_REQUEST.br,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : zlib.gzipSync(body, { level: PER_REQUEST.gzip })
  return compressed as Bytes
}

type Compressed = { br?: SplicedStream; gzip?: SplicedStream }

/** Per cache entry (the kept answer object): its compressed prefixes, gone with the entry. */
const prefixes = new WeakMap<object, Compressed>()

/**
 * `prefix() + tail` in `coding`, where `prefix` is the same for every request on `entry`:
 * compressed on the first request in that coding, then reused.
 */
export function compressWithTail(entry: object, prefix: () => Buffer, tail: Buffer, coding: ContentCoding): readonly Bytes[] {
  let kept = prefixes.get(entry)
  if (!kept) prefixes.set(entry, (kept = {}))
  const stream = (kept[coding] ??= coding === 'br' ? brotliPrefix(prefix(), ONCE.br) : gzipPrefix(prefix(), ONCE.gzip))
  return stream.complete(tail)
}
