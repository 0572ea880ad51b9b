// @ts-check
import { UPLOAD_FILE_POLICY } from '../platform/media/uploadFilePolicy.js'

/**
 * The security headers every answer carries: one definition, applied by the production Node
 * server (src/edge/nodeServer, every answer including Node-level errors) and by Next's
 * `headers()` (next.config.mjs) for `next dev` / `next start`. Plain JavaScript so that
 * next.config.mjs can import it as it is.
 *
 * The Content-Security-Policy is what the admin panel (Next's app router + Payload's UI) and
 * the /docs page (Swagger UI) run under without a violation (test/browser/csp.test.ts):
 * - script-src 'unsafe-inline': Next's app router streams its payload in inline <script>
 *   tags (`self.__next_f.push`) with no nonce on a statically rendered shell; nonces would
 *   force every page to render per request. No 'unsafe-eval' outside `next dev`.
 * - style-src 'unsafe-inline': Payload's UI and Swagger UI set inline styles.
 * - img-src https: data: blob: the branding logo/icon may be an external https URL; uploads
 *   preview as blob: and data: URLs.
 * Everything else is this origin only; nothing may frame the pages, embed plugins, change the
 * base URL or post forms elsewhere.
 */

/** @param {{ dev?: boolean }} [options] */
export function contentSecurityPolicy({ dev = false } = {}) {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "media-src 'self' blob: data:",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * Headers for every answer, whatever its type: a policy on a JSON or image answer is inert,
 * and one list means no answer can miss one.
 * @param {{ dev?: boolean }} [options]
 * @returns {Record<string, string>}
 */
export function securityHeaders(options = {}) {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Content-Security-Policy': contentSecurityPolicy(options),
    // For browsers that predate frame-ancestors.
    'X-Frame-Options': 'DENY',
  }
}

/** Payload's route for an upload collection's files (`/api/media/file/logo.svg`), by path. */
const UPLOAD_FILE_PATH = /^\/api\/[^/]+\/file\//i
/** The path (up to `?` or `#`) holds `file`, a `%`, or a character outside printable ASCII (a tab, a space, a non-ASCII letter). */
const MAY_NAME_FILE_ROUTE = /^[^?#]*?(?:file|%|[^\x21-\x7e])/i

/**
 * Whether a request target reaches an upload collection's file route as the server serves it:
 * Next decodes each segment (`/api/media/%66ile/x.svg` is the file route) and the URL parser
 * resolves dot segments and backslashes (`/api/x/../media/file/x.svg`); empty segments are
 * dropped (`/api//media/file/x.svg`), and case is ignored. Matching more than Payload serves is
 * harmless: no page lives under `/api/<collection>/file/`.
 * @param {string} target
 * @returns {boolean}
 */
export function isUploadFilePath(target) {
  // Most targets cannot spell the route: without `file`, an escape or a character the URL parser
  // drops or rewrites in their path, no decoding makes one (the walk below allocates per request).
  if (!MAY_NAME_FILE_ROUTE.test(target)) return false
  let pathname
  try {
    pathname = new URL(target, 'http://localhost').pathname
  } catch {
    return false
  }
  const segments = []
  for (const raw of pathname.split('/')) {
    let segment = raw
    try {
      segment = decodeURIComponent(raw)
    } catch {
      // Not decodable: Next answers 400 for it; kept as it is.
    }
    if (segment === '' || segment === '.') continue
    if (segment === '..') segments.pop()
    else segments.push(...segment.split(/[\\/]/).filter(Boolean))
  }
  return UPLOAD_FILE_PATH.test(`/${segments.join('/')}/`)
}

/**
 * The headers of an uploaded file's answer: the same list with the file's policy.
 * @returns {Record<string, string>}
 */
export function uploadFileSecurityHeaders() {
  return { ...securityHeaders(), 'Content-Security-Policy': UPLOAD_FILE_POLICY }
}

/** Only on answers to requests that came over HTTPS (directly, or through a trusted proxy). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains'
