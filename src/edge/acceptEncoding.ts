/**
 * Accept-Encoding negotiation (RFC 9110 §12.5.3) for the two codings the API writes, br and
 * gzip. q-values rank them, `q=0` refuses a coding, `*` stands for every coding not named,
 * and identity (no coding) is acceptable unless `identity;q=0`, or `*;q=0` without an
 * identity entry, refuses it.
 */

export type ContentCoding = 'br' | 'gzip'

export type CodingChoice = {
  /** The coding the client ranks highest (br on a tie with gzip), or null when it takes neither. */
  coding: ContentCoding | null
  /**
   * Whether a plain answer is acceptable at all. It stays acceptable to fall back on (a
   * server that has no acceptable coding answers plain rather than refusing a read).
   */
  identityAcceptable: boolean
  /** The client ranks identity above `coding` (`gzip;q=0.5, identity`): answer plain. */
  prefersIdentity: boolean
}

const NONE: CodingChoice = { coding: null, identityAcceptable: true, prefersIdentity: true }

/** A q-value as RFC 9110 writes it (0 to 1, up to three decimals); anything else is not one. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** The q of each coding the header names (lower-cased; `x-gzip` is gzip); malformed entries are skipped. */
function weights(header: string): Map<string, number> {
  const named = new Map<string, number>()
  for (const entry of header.split(',')) {
    const [rawName, ...params] = entry.split(';')
    const name = rawName!.trim().toLowerCase()
    if (name === '') continue
    let q = 1
    let malformed = false
    for (const param of params) {
      const eq = param.indexOf('=')
      if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue
      const value = param.slice(eq + 1).trim()
      if (!QVALUE.test(value)) malformed = true
      else q = Number(value)
    }
    if (malformed) continue
    const key = name === 'x-gzip' ? 'gzip' : name
    // A coding named twice keeps its highest weight.
    named.set(key, Math.max(q, named.get(key) ?? 0))
  }
  return named
}

function choose(header: string): CodingChoice {
  const named = weights(header)
  const star = named.get('*')
  const qOf = (coding: ContentCoding) => named.get(coding) ?? star ?? 0
  const br = qOf('br')
  const gzip = qOf('gzip')
  const identity = named.get('identity') ?? (star === 0 ? 0 : 1)
  const coding: ContentCoding | null = br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : null
  const best = coding === null ? 0 : Math.max(br, gzip)
  return { coding, identityAcceptable: identity > 0, prefersIdentity: coding === null || (named.has('identity') && identity > best) }
}

// Clients send the same few headers again and again: parse each once.
const MEMO_LIMIT = 64
const memo = new Map<string, CodingChoice>()

/** The client's choice; no header means no coding (RFC 9110 allows any, browsers always send one). */
export function negotiateCoding(acceptEncoding: string | null): CodingChoice {
  if (acceptEncoding === null) return NONE
  let choice = memo.get(acceptEncoding)
  if (choice === undefined) {
    choice = choose(acceptEncoding)
    if (memo.size >= MEMO_LIMIT) memo.clear()
    memo.set(acceptEncoding, choice)
  }
  return choice
}
