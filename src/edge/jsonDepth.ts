/**
 * Nesting depth of a JSON text, counted without parsing (a scan over the characters, strings
 * skipped): a body nested thousands deep is refused before anything recursive (JSON.parse's
 * consumers, validation walks, Payload's deep copy) sees it. No legitimate body of this API
 * or of the admin panel nests anywhere near MAX_JSON_DEPTH (rich text is the deepest, a
 * handful of levels).
 */
export const MAX_JSON_DEPTH = 32

const QUOTE = 34
const BACKSLASH = 92
const OPENERS = new Set([123, 91]) // { [
const CLOSERS = new Set([125, 93]) // } ]

/** True when some value of `text` (JSON, or anything: only brackets outside strings count) nests deeper than `max`. */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (OPENERS.has(c)) {
      if (++depth > max) return true
    } else if (CLOSERS.has(c)) depth--
  }
  return false
}
