/**
 * What an uploaded file must be before it is stored, beyond Payload's own checks (its MIME
 * allow-list, its SVG inspection). Payload inspects an SVG decoded as UTF-8, while a browser
 * decodes it by its XML declaration: an SVG declaring `encoding="ISO-2022-JP"` read as a
 * harmless comment by the one and as a <script> by the other. So an SVG (or any XML upload)
 * is accepted only in the one encoding both read alike: valid UTF-8, no other declared
 * encoding, no byte-order mark but UTF-8's, no NUL (UTF-16 without a mark) and no ESC (the
 * ISO-2022 family's shifts). Files are also served under a policy that runs no script
 * (src/edge/securityHeaders.js), whatever a check misses.
 */

export type UploadProblem = { path: 'file' | 'filename'; message: string }

/** C0 controls, DEL and the C1 controls: never part of a file name. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

export const FILE_NAME_PROBLEM = 'The file name must not contain control characters.'

/** Whether a file name holds a control character (Payload's multipart parser fails on one with a 500). */
export const unsafeFileName = (name: string): boolean => CONTROL.test(name)

/** The XML declaration's encoding, if it names one. */
const DECLARED_ENCODING = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']*)["']/i
/** The declaration comes first (after white space): only this much of a file is searched for it. */
const DECLARATION_BYTES = 1024

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** A file that a browser may read as XML: by its type, its name or its first character. */
function looksLikeXml(name: string, mimeType: string, data: Uint8Array): boolean {
  if (/(?:xml|svg)/i.test(mimeType) || /\.(?:svg|svgz|xml|xsl|xht|xhtml)$/i.test(name)) return true
  // A byte-order mark of UTF-16 or UTF-32, or '<' after UTF-8's mark and white space.
  if ((data[0] === 0xfe && data[1] === 0xff) || (data[0] === 0xff && data[1] === 0xfe)) return true
  let i = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? 3 : 0
  while (i < data.length && (data[i] === 0x20 || data[i] === 0x09 || data[i] === 0x0a || data[i] === 0x0d)) i++
  return data[i] === 0x3c
}

/** Why this file may not be stored, or null. */
export function uploadProblem(file: { name: string; mimetype: string; data: Uint8Array }): UploadProblem | null {
  if (unsafeFileName(file.name)) return { path: 'filename', message: FILE_NAME_PROBLEM }
  if (!looksLikeXml(file.name, file.mimetype, file.data)) return null
  const refuse = (why: string): UploadProblem => ({ path: 'file', message: `An SVG or XML file must be UTF-8: ${why}.` })
  const d = file.data
  if ((d[0] === 0xfe && d[1] === 0xff) || (d[0] === 0xff && d[1] === 0xfe)) return refuse('it has a UTF-16 byte-order mark')
  if (d.includes(0x00)) return refuse('it holds NUL bytes')
  if (d.includes(0x1b)) return refuse('it holds ESC bytes (an ISO-2022 shift)')
  let text: string
  try {
    text = utf8.decode(d)
  } catch {
    return refuse('it is not valid UTF-8')
  }
  const declared = DECLARED_ENCODING.exec(text.slice(0, DECLARATION_BYTES).replace(/^\uFEFF/, ''))?.[1]
  if (declared !== undefined && !/^utf-?8$/i.test(declared.trim())) return refuse(`it declares encoding "${declared.slice(0, 40)}"`)
  return null
}
