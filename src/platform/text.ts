/**
 * Text rules, one place for both layers: the API's request schemas (zod) and the
 * collections' field validation (admin console, local API).
 *
 * Length is counted in Unicode code points, what a user calls characters: "😀" is 1, not the
 * 2 UTF-16 units JavaScript's `length` (and Payload's `maxLength`) would count. So the
 * collections carry no `maxLength`; their `validate` is `textValidator(limit)` below.
 *
 * Control characters (C0, DEL, C1) other than tab and newline are refused, never stripped:
 * databases and drivers cut strings at NUL, and nothing may be altered silently. Carriage
 * return is refused too; JSON clients and browsers' text areas send bare newlines.
 */
import { z } from 'zod'

/** Every text limit, in code points. */
export const TEXT_LIMITS = {
  title: 200,
  description: 2000,
  label: 120,
  reason: 500,
  url: 2048,
  slug: 64,
  facetKey: 64,
  tagQuery: 64,
  contentQuery: 200,
  slugValue: 500,
  roleName: 64,
  roleDescription: 500,
  username: 32,
  email: 320,
  brandingName: 120,
  tagline: 200,
  brandingDescription: 2000,
  alt: 500,
} as const

/** Echoed values in error details are cut to this many code points. */
export const ECHO_LIMIT = 200

/** Length in code points; an unpaired surrogate counts as one (as zod counts). */
export function textLength(value: string): number {
  let count = value.length
  for (let i = 0; i < value.length - 1; i++) {
    const c = value.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1
        i += 1
      }
    }
  }
  return count
}

/** The first `max` code points (never half a surrogate pair). */
export function cutText(value: string, max = ECHO_LIMIT): string {
  if (value.length <= max) return value
  let out = ''
  let n = 0
  for (const ch of value) {
    if (n === max) break
    out += ch
    n += 1
  }
  return out
}

/** C0 controls but tab (09) and newline (0A), DEL, and C1 controls. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value)
}

export type TextConstraint = 'control_characters' | 'encoding' | 'max' | 'min' | 'required' | 'type'

/** What is wrong with a text value, or null. `encoding`: an unpaired surrogate (stored as U+FFFD otherwise). */
export function textProblem(value: unknown, { max, min = 0, required = false }: { max: number; min?: number; required?: boolean }): TextConstraint | null {
  if (value === undefined || value === null) return required ? 'required' : null
  if (typeof value !== 'string') return 'type'
  if (hasControlCharacters(value)) return 'control_characters'
  if (!value.isWellFormed()) return 'encoding'
  const length = textLength(value)
  if (required && length === 0) return 'required'
  if (length > max) return 'max'
  if (length < min) return 'min'
  return null
}

/** The console's messages, one per constraint; `constraintOfMessage` reads them back for the API. */
const MESSAGES: Record<TextConstraint, (limit: number) => string> = {
  control_characters: () => 'Control characters other than tab and newline are not allowed.',
  encoding: () => 'The text is not valid Unicode (an unpaired surrogate).',
  max: (limit) => `At most ${limit} characters.`,
  min: (limit) => `At least ${limit} characters.`,
  required: () => 'This field is required.',
  type: () => 'Expected text.',
}

/** The URL policy's messages (src/platform/urlPolicy), here so one function reads every message back. */
export const URL_MESSAGES = {
  url: 'Use an absolute http or https URL.',
  url_or_path: 'Use an absolute http or https URL, or a path starting with one slash, like /logo.png.',
} as const

export function constraintOfMessage(message: string): TextConstraint | keyof typeof URL_MESSAGES | undefined {
  if (message === URL_MESSAGES.url) return 'url'
  if (message === URL_MESSAGES.url_or_path) return 'url_or_path'
  if (message === MESSAGES.control_characters(0)) return 'control_characters'
  if (message === MESSAGES.encoding(0)) return 'encoding'
  if (/^At most \d+ characters\.$/.test(message)) return 'max'
  if (/^At least \d+ characters\.$/.test(message)) return 'min'
  if (message === MESSAGES.required(0)) return 'required'
  return undefined
}

/**
 * A collection field's `validate`: the same rule as the API. Payload passes `required`;
 * `extra` runs after the text checks (e.g. a URL policy).
 */
export function textValidator(max: number, extra?: (value: string) => true | string) {
  return (value: unknown, options?: { required?: boolean }): true | string => {
    const problem = textProblem(value, { max, required: options?.required === true })
    if (problem) return MESSAGES[problem](max)
    if (extra && typeof value === 'string' && value !== '') return extra(value)
    return true
  }
}

/**
 * An API text field: length in code points (the collections' count), optionally trimmed
 * first. Control characters are refused for every string of every request by parseWith.
 */
export function textField(max: number, { min = 0, trim = false }: { min?: number; trim?: boolean } = {}) {
  const base = trim ? z.string().trim() : z.string()
  return (
    base
      .refine((v) => textLength(v) <= max, { message: `At most ${max} characters`, params: { constraint: 'max' }, abort: true })
      .refine((v) => textLength(v) >= min, { message: `At least ${min} characters`, params: { constraint: 'min' }, abort: true })
      // Published as JSON Schema's lengths, which count code points as these checks do (the
      // OpenAPI document; the route's largest body, src/edge/bodyBound).
      .meta({ maxLength: max, ...(min > 0 ? { minLength: min } : {}) })
  )
}
