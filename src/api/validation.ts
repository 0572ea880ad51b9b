import { z, type ZodType } from 'zod'

import { type FieldProblem, validationFailed } from '../errors'
import { hasControlCharacters } from '../text'

/** Fields whose values are never echoed back in error details. */
const SECRET_FIELD = /password|token|secret/i

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<PropertyKey, unknown>)[key]
  }
  return cur
}

function constraintOf(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? 'required' : 'type'
    case 'too_small':
      return 'min'
    case 'too_big':
      return 'max'
    case 'invalid_format':
      return issue.format === 'regex' ? 'pattern' : issue.format
    case 'invalid_value':
      return 'enum'
    case 'unrecognized_keys':
      return 'unknown'
    case 'custom':
      return (issue.params as { constraint?: string } | undefined)?.constraint ?? 'custom'
    default:
      return issue.code
  }
}

/** Maps a zod failure to the spec's `[{ field, constraint, value }]`, never echoing secrets. */
export function fieldProblems(error: z.ZodError, input: unknown): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), constraint: 'unknown' }))
    }
    const field = issue.path.map(String).join('.') || '(body)'
    const value = valueAt(input, issue.path)
    const problem: FieldProblem = { field, constraint: constraintOf(issue, value) }
    if (value !== undefined && !SECRET_FIELD.test(field) && (typeof value !== 'object' || value === null)) {
      problem.value = value
    }
    return [problem]
  })
}

/**
 * Every string of a request (at any depth) with a control character other than tab and
 * newline. Secrets are exempt: never displayed or stored as text, and a password that
 * once worked must keep working.
 */
export function controlCharacterProblems(input: unknown, path: string[] = []): FieldProblem[] {
  if (typeof input === 'string') {
    const field = path.join('.') || '(body)'
    if (!hasControlCharacters(input) || SECRET_FIELD.test(field)) return []
    return [{ field, constraint: 'control_characters', value: input }]
  }
  if (input === null || typeof input !== 'object') return []
  return Object.entries(input).flatMap(([key, value]) => controlCharacterProblems(value, [...path, key]))
}

/**
 * Parses input with a schema or throws 400 `validation.failed` with the field list. Control
 * characters are refused here, once for every request schema, before anything is stored.
 */
export function parseWith<T extends ZodType>(schema: T, input: unknown): z.infer<T> {
  const controls = controlCharacterProblems(input)
  const result = schema.safeParse(input)
  if (controls.length === 0 && result.success) return result.data
  const reported = new Set(controls.map((p) => p.field))
  const others = result.success ? [] : fieldProblems(result.error, input).filter((p) => !reported.has(p.field))
  throw validationFailed([...controls, ...others])
}
