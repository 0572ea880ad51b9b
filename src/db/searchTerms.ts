/**
 * What a text search means, on both engines: one tokenizer and one stop-word list, applied
 * to q before either engine queries, so that SQLite's FTS5 and MongoDB's $text are asked the
 * same words (docs/api.md, "Text search", states the rules; docs/mongodb.md the differences
 * that remain in how each engine indexes documents and scores them).
 *
 * - A word is a maximal run of letters, combining marks, digits, private-use characters and
 *   `_`, in NFC. `_` joins (`foo_bar` is one word): MongoDB's text index never
 *   splits at it, and FTS5 is told the same (FTS_TOKENCHARS). Anything else separates words.
 * - Words joined by apostrophes (' or ’): a stop word as a whole (`don't`) is dropped;
 *   otherwise each part is a word of its own, and parts under 3 characters (`john's` ->
 *   `john`) are dropped: they are clitics, not short words the user typed.
 * - 3 characters or more: a term in lower case, scored by the text index (which folds case
 *   and accents on both engines), unless it is a stop word (compared without accents or
 *   case, as MongoDB compares them).
 * - 1 or 2 characters: a short term, a required substring of the title, kept as typed and
 *   compared as SQLite's LIKE compares: ASCII letters in either case, anything else exactly
 *   (MongoDB's pattern is built to match the same). Never dropped as a stop word: the spec
 *   sends every short token to the title match.
 * - A query of stop words only (no term, no short word left) matches nothing, on both
 *   engines: the service answers an empty page (never 404), and an engine given terms that
 *   are all stop words matches nothing either. (Before, MongoDB matched them as whole words
 *   and SQLite ranked them by bm25.)
 */

/** Characters FTS5 must keep inside a token besides letters and digits (MongoDB does). */
export const FTS_TOKENCHARS = '_'

/** The text index's column weights, on both engines: a title match counts three times. */
export const TEXT_WEIGHTS = { title: 3, description: 1 } as const

/** Fewer characters than this: a short term (title substring) instead of a text-index term. */
export const MIN_TERM_LENGTH = 3

/**
 * MongoDB's English text-index stop words (src/mongo/db/fts/stop_words_english.txt), which its
 * index drops from documents and queries; the service drops them from queries on SQLite too.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being below between
  both but by can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further
  had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how how's
  i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off on
  once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so some
  such than that that's the their theirs them themselves then there there's these they they'd they'll they're they've
  this those through to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when
  when's where where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're you've
  your yours yourself yourselves`.split(/\s+/),
)

export type SearchTerms = { terms: string[]; shortTerms: string[] }

const WORD = /[\p{L}\p{M}\p{N}\p{Co}_]+(?:['’][\p{L}\p{M}\p{N}\p{Co}_]+)*/gu
const APOSTROPHES = /['’]/g

/** Without accents or case: how a stop word is recognised. */
const folded = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(APOSTROPHES, "'")

export const isStopWord = (word: string): boolean => STOP_WORDS.has(folded(word))

/** Length in characters (code points), as the threshold counts it. */
const lengthOf = (word: string) => [...word].length

/** The terms and short terms of q, each once, in the order they first appear. */
export function splitTerms(q: string): SearchTerms {
  const terms = new Set<string>()
  const shortTerms = new Map<string, string>()
  for (const [token] of q.normalize('NFC').matchAll(WORD)) {
    const parts = token.split(APOSTROPHES)
    if (parts.length > 1 && isStopWord(token)) continue
    for (const word of parts) {
      if (lengthOf(word) >= MIN_TERM_LENGTH) {
        if (!isStopWord(word)) terms.add(word.toLowerCase())
      } else if (parts.length === 1) {
        // As typed: the title match folds ASCII letters only, so other letters keep their case.
        const key = asciiLower(word)
        if (!shortTerms.has(key)) shortTerms.set(key, word)
      }
    }
  }
  return { terms: [...terms], shortTerms: [...shortTerms.values()] }
}

const asciiLower = (word: string) => word.replace(/[A-Z]/g, (c) => c.toLowerCase())

/**
 * The terms an engine sends to its text index: the given ones without stop words (the
 * service's terms have none already). Empty while terms were given: the query matches nothing.
 */
export const indexedTerms = (terms: readonly string[]): string[] =>
  terms.filter((t) => lengthOf(t) >= MIN_TERM_LENGTH && !isStopWord(t))
