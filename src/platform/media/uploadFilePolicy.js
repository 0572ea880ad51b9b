// @ts-check
/**
 * The policy of an uploaded file (Payload's `/api/<collection>/file/<name>`): a file is a
 * document of its own when opened, and must never run script, whatever an upload check misses
 * (an SVG's script, HTML sniffed from a file): no script, no plugin, no frame, a sandbox (a
 * unique origin, so even a script that ran could not reach the console's), images and inline
 * styles only. Stricter than the site's policy and than Payload's own for XML files
 * (`script-src 'none'; frame-src 'none'; object-src 'none'`), which it replaces. Plain
 * JavaScript: next.config.mjs reads it (through src/edge/securityHeaders.js) as it is; the media
 * collection sets it on every file answer, the Node server by path.
 */
export const UPLOAD_FILE_POLICY = [
  "default-src 'none'",
  "img-src 'self' data:",
  "style-src 'unsafe-inline'",
  "font-src 'self' data:",
  'sandbox',
  "frame-ancestors 'none'",
].join('; ')
