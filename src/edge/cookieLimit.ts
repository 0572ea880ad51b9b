/**
 * A Cookie header of more pairs than any browser sends a site is refused (400) before Payload
 * and Next read it: Payload parses it on every request, more than once, and a pair that does not
 * decode costs it a thrown error (docs/benchmarks.md, *Measurements behind the code*). Browsers keep
 * ~180 cookies per site at most; the console sets two.
 */
import type { HeaderReader } from './headers'
import type { Refusal } from './refusal'

export const MAX_COOKIE_PAIRS = 150

/** Why this request's Cookie header is not read, or null. */
export function cookieRefusal(headers: HeaderReader): Refusal | null {
  const cookie = headers.get('cookie')
  if (!cookie) return null
  let pairs = 1
  for (let at = cookie.indexOf(';'); at !== -1; at = cookie.indexOf(';', at + 1)) {
    if (++pairs > MAX_COOKIE_PAIRS) {
      return {
        status: 400,
        code: 'validation.failed',
        message: `The request carries more than ${MAX_COOKIE_PAIRS} cookies; clear this site's cookies and retry.`,
        details: [{ field: 'cookie', constraint: 'max_pairs' }],
      }
    }
  }
  return null
}
