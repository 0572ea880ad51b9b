/**
 * A JSON text's shape, counted without parsing (one scan over the characters, strings skipped):
 * how deep it nests and how many object members it holds. A body nested thousands deep is refused
 * before anything recursive (JSON.parse's consumers, validation walks, Payload's deep copy) sees
 * it; one of thousands of distinct keys before JSON.parse and Payload's copies of it (an object of
 * many keys costs milliseconds per parse, spread or clone, and Payload does several; docs/benchmarks.md, *Measurements behind the code*). No legitimate
 * body of this API or of the console nests near MAX_JSON_DEPTH (rich text is the deepest, a
 * handful of levels) or holds near MAX_JSON_MEMBERS members (a document has a few dozen fields;
 * lists, such as a reorder's slugs, are values, not members).
 */
export const MAX_JSON_DEPTH = 32
export const MAX_JSON_MEMBERS = 2_000

const QUOTE = 34
const BACKSLASH = 92
const BRACE = 123
const BRACKET = 91
const CLOSE_BRACE = 125
const CLOSE_BRACKET = 93
const COLON = 58

/** What is wrong with a JSON text's shape (`max_depth`, `max_members`), or null; anything else is JSON.parse's to judge. */
export function jsonShapeProblem(text: string, maxDepth = MAX_JSON_DEPTH, maxMembers = MAX_JSON_MEMBERS): 'max_depth' | 'max_members' | null {
  let depth = 0
  let members = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === BRACE || c === BRACKET) {
      if (++depth > maxDepth) return 'max_depth'
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--
    // Outside strings, a colon is a member's (a valid text has one per member).
    else if (c === COLON && ++members > maxMembers) return 'max_members'
  }
  return null
}

/** True when some value of `text` nests deeper than `max` (only brackets outside strings count). */
export const nestsDeeperThan = (text: string, max = MAX_JSON_DEPTH): boolean => jsonShapeProblem(text, max, Infinity) === 'max_depth'
