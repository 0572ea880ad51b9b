/**
 * A multipart/form-data body read as Payload will read it: by busboy, the parser Payload's own
 * upload handling uses (`payload/dist/uploads/fetchAPI-multipart`), with the same limits
 * (FORM_LIMITS, also Payload's `upload.limits` in payload.config.ts), so the guard and Payload
 * see the same parts (a hand-written scan disagreed with busboy on quoted boundaries, folded
 * headers and `name*`, and let a `_payload` past the checks). The body is handed to the parser a
 * piece per turn of the loop as it is read: a form of thousands of tiny parts costs many short
 * turns, never one long one (`Request.formData()` held the loop for the whole body; docs/benchmarks.md, *Measurements behind the code*),
 * and the reading stops at the first refusal (the part limit, a size limit).
 */
import Busboy from 'busboy'

import { getConfig } from '../platform/config'

/** What a console form may hold: a file and its document (`_payload`), and a few fields beside. */
export const MAX_FORM_PARTS = 16

/** busboy's limits for a form: the same for the guard and for Payload (payload.config.ts). */
export function formLimits() {
  const { json, upload } = getConfig().bodyLimits
  return { parts: MAX_FORM_PARTS, fields: MAX_FORM_PARTS, files: MAX_FORM_PARTS, fieldSize: json, fileSize: upload, headerPairs: 32 }
}

export type FormRead =
  | { ok: true; fields: Map<string, string>; fileNames: string[] }
  | { ok: false; reason: 'max_parts' | 'max_bytes' | 'max_field_bytes' | 'control_characters' | 'multipart' }

/** A piece of the body per turn of the loop. */
const PIECE_BYTES = 64 * 1024
/** A part header with a control character, which busboy refuses as malformed: say which (a file name, as the console sends one). */
const CONTROL_IN_DISPOSITION = /content-disposition:[^\r\n]*[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/i
/** How much of a form's start is kept to say why busboy refused it. */
const HEAD_BYTES = 64 * 1024

/**
 * The fields (by name, the first of each) and the file names of a form, or why it is refused.
 * Reads `body` no further than it must: a refusal (too many parts, a field or the whole body over
 * its limit, `limit` bytes) stops the reading there.
 */
export async function readForm(body: AsyncIterable<Uint8Array>, contentType: string, limit: number): Promise<FormRead> {
  let result: FormRead | undefined
  // A write the parser will not finish once it failed or gave up: woken by the failure instead.
  let waiting: (() => void) | undefined
  const settle = (r: FormRead) => {
    result ??= r
    waiting?.()
  }
  let parser: Busboy.Busboy
  try {
    parser = Busboy({ headers: { 'content-type': contentType }, limits: formLimits(), defParamCharset: 'utf8' })
  } catch {
    return { ok: false, reason: 'multipart' }
  }
  const fields = new Map<string, string>()
  const fileNames: string[] = []
  const tooMany = () => settle({ ok: false, reason: 'max_parts' })
  parser.on('partsLimit', tooMany)
  parser.on('fieldsLimit', tooMany)
  parser.on('filesLimit', tooMany)
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated || info.nameTruncated) settle({ ok: false, reason: 'max_field_bytes' })
    else if (!fields.has(name)) fields.set(name, value)
  })
  parser.on('file', (_name, stream, info) => {
    fileNames.push(info.filename)
    stream.on('limit', () => settle({ ok: false, reason: 'max_bytes' }))
    stream.resume()
  })
  let head = ''
  const closed = new Promise<void>((resolve) => {
    parser.on('error', () => {
      settle({ ok: false, reason: CONTROL_IN_DISPOSITION.test(head) ? 'control_characters' : 'multipart' })
      resolve()
    })
    parser.on('close', () => resolve())
  })
  const write = (piece: Uint8Array) =>
    new Promise<void>((resolve) => {
      waiting = resolve
      parser.write(piece, () => setImmediate(resolve))
    })
  let size = 0
  for await (const chunk of body) {
    if (head.length < HEAD_BYTES) head += Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, HEAD_BYTES)).toString('latin1')
    size += chunk.byteLength
    if (size > limit) settle({ ok: false, reason: 'max_bytes' })
    for (let at = 0; at < chunk.byteLength && !result; at += PIECE_BYTES) await write(chunk.subarray(at, at + PIECE_BYTES))
    if (result) break
  }
  if (result) {
    parser.destroy()
    return result
  }
  parser.end()
  await closed
  return result ?? { ok: true, fields, fileNames }
}
