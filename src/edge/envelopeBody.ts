/**
 * The bytes of an answer's body, in the coding the client takes. A success envelope is
 * `{"success":true,` + its members (`"data":…[,"pagination":…]`) + the per-request
 * `,"meta":{…}}`: a cached answer keeps all but the meta as bytes (src/platform/serializedAnswer), so its
 * body is written, and compressed, from what the cache holds, with only the meta new.
 */
import { type Bytes, codingForRequest, compressBody, compressWithTail, type ContentCoding } from './compression'
import { answerSerializer, ENVELOPE_HEAD, type SerializedAnswer } from '../platform/serializedAnswer'

export type EncodedBody = { body: string | Bytes | readonly Bytes[]; coding: ContentCoding | null }

/** The per-request end of a success envelope (the request id is JSON-escaped like any string). */
export const metaTail = (requestId: string, durationMs: number): string =>
  `,"meta":{"requestId":${JSON.stringify(requestId)},"durationMs":${durationMs}}}`

/** A body built for this request, compressed now when the client takes a coding and it is large enough. */
export function encodeText(text: string, acceptEncoding: string | null): EncodedBody {
  // Most requests name no coding: no byte count, no copy.
  if (acceptEncoding === null) return { body: text, coding: null }
  const coding = codingForRequest(acceptEncoding, Buffer.byteLength(text))
  return coding === null ? { body: text, coding } : { body: compressBody(Buffer.from(text, 'utf8'), coding), coding }
}

/** A success envelope built from data now (answers no cache keeps). */
export function dataEnvelope(data: unknown, pagination: unknown, tail: string): string {
  return `${ENVELOPE_HEAD}${answerSerializer.members(data, pagination)}${tail}`
}

/**
 * A cached answer's envelope: its kept bytes and this request's tail, with no serialization
 * of its data. In a coding, the kept part is compressed once per answer and coding.
 */
export function cachedEnvelope(answer: SerializedAnswer, tail: string, acceptEncoding: string | null): EncodedBody {
  const tailBytes = Buffer.from(tail, 'utf8') as Bytes
  const prefix = answer.envelopeStart as Bytes
  const coding = acceptEncoding === null ? null : codingForRequest(acceptEncoding, prefix.length + tailBytes.length)
  if (coding === null) return { body: [prefix, tailBytes], coding }
  return { body: compressWithTail(answer, () => prefix, tailBytes, coding), coding }
}
