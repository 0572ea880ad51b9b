/**
 * An answer serialized once and kept as bytes. A cache (the content, catalog and branding
 * services) holds these; the HTTP edge (src/edge/wrap.ts) writes the bytes of a hit as they are,
 * with only the per-request `meta` appended, so a hit costs no JSON.stringify of its data.
 * A platform utility: services make them, the edge writes them, neither imports the other.
 */
import { weakEtag } from './entityTag'

export type SerializedAnswer = {
  /**
   * UTF-8 of the success envelope up to its `meta`: `{"success":true,` and the members in the
   * envelope's key order, `"data":<json>` and, for a list, `,"pagination":<json>`. A write adds
   * only the request's `,"meta":{…}}`.
   */
  readonly envelopeStart: Buffer
  /** The route's weak ETag, computed with the bytes (undefined where the route has none). */
  readonly etag: string | undefined
}

/** How every success envelope begins. */
export const ENVELOPE_HEAD = '{"success":true,'

export type SerializeOptions = {
  /** The answer's ETag as the caller already has it (the catalog record carries its own). */
  etag?: string
  /** A weak ETag over the serialized data (GET /meta), from the same bytes. */
  etagOverData?: boolean
}

/** JSON of a value as the envelope holds it: what JSON.stringify drops becomes null. */
const json = (value: unknown): string => JSON.stringify(value) ?? 'null'

const membersText = (dataJson: string, pagination: unknown): string =>
  pagination == null ? `"data":${dataJson}` : `"data":${dataJson},"pagination":${json(pagination)}`

/**
 * The one serializer of answer members, an object so tests can count its calls: a cache
 * hit must not reach it. The edge's uncached answers use `members` too, so both paths write
 * the same bytes for the same data.
 */
export const answerSerializer = {
  /** `"data":…[,"pagination":…]` as text (`data` undefined is null, as the envelope has always said). */
  members(data: unknown, pagination?: unknown): string {
    return membersText(json(data ?? null), pagination)
  },

  /** The bytes a cache keeps, and the ETag where one is asked for. */
  serialize(data: unknown, pagination?: unknown, options: SerializeOptions = {}): SerializedAnswer {
    return encoded(json(data ?? null), pagination, options)
  },

}

function encoded(dataJson: string, pagination: unknown, options: SerializeOptions): SerializedAnswer {
  const etag = options.etagOverData ? weakEtag(dataJson) : options.etag
  // Encoded once, head included, so writing it needs no copy (a one-off answer pays one encoding).
  const envelopeStart = Buffer.from(ENVELOPE_HEAD + membersText(dataJson, pagination), 'utf8')
  return { envelopeStart, etag }
}

/** How much a kept answer weighs in a byte-bounded cache. */
export const answerBytes = (answer: SerializedAnswer): number => answer.envelopeStart.length
