import { z, type ZodType } from 'zod'

import { getConfig } from '../platform/config'

import { ApiError, type FieldProblem, MAX_PROBLEMS, validationFailed } from '../platform/errors'
import { hasControlCharacters } from '../platform/text'
import { ERROR_CODES } from './errorCodes'

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

/**
 * A rule that answers its own code (the spec's pagination.invalid, sort.unsupported,
 * query.too_short) instead of being one field of validation.failed: a schema adds this
 * issue (`ctx.addIssue(answering(error))` in a transform or refinement) and the parse throws
 * the error as it is.
 */
export const answering = (error: ApiError) => ({ code: 'custom' as const, message: error.message, params: { answer: error } })

/**
 * A validation.failed problem a schema states itself: its constraint and the value to echo
 * (`undefined`: none), e.g. one slug of a comma list rather than the whole parameter.
 */
export const problem = (constraint: string, value: unknown) => ({ code: 'custom' as const, message: constraint, params: { constraint, value } })

const answerOf = (issue: z.core.$ZodIssue): ApiError | undefined =>
  issue.code === 'custom' && issue.params?.answer instanceof ApiError ? issue.params.answer : undefined

/** The order of the error table: the spec's, pagination.invalid before sort.unsupported before query.too_short. */
const CODE_ORDER = Object.keys(ERROR_CODES)
const rankOf = (code: string) => (CODE_ORDER.includes(code) ? CODE_ORDER.indexOf(code) : CODE_ORDER.length)

/** When several rules with their own code fail, the code the error table lists first wins, then the first such rule. */
function firstAnswer(error: z.ZodError): ApiError | undefined {
  let best: ApiError | undefined
  for (const issue of error.issues) {
    const answer = answerOf(issue)
    if (answer && (!best || rankOf(answer.code) < rankOf(best.code))) best = answer
  }
  return best
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
  return error.issues.slice(0, MAX_PROBLEMS).flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.slice(0, MAX_PROBLEMS).map((key) => ({ field: [...issue.path, key].join('.'), constraint: 'unknown' }))
    }
    const field = issue.path.map(String).join('.') || '(body)'
    const stated = issue.code === 'custom' && issue.params !== undefined && Object.hasOwn(issue.params, 'value')
    const value = stated ? issue.params!.value : valueAt(input, issue.path)
    const problem: FieldProblem = { field, constraint: constraintOf(issue, value) }
    if (value !== undefined && !SECRET_FIELD.test(field) && (typeof value !== 'object' || value === null)) {
      problem.value = value
    }
    return [problem]
  })
}

/**
 * Every string of a request (at any depth) with a control character other than tab and
 * newline, MAX_PROBLEMS at most. Secrets are exempt: never displayed or stored as text, and a
 * password that once worked must keep working. One walk with one path (a copy per value cost
 * seconds on a deep body; docs/benchmarks.md, *Measurements behind the code*); a field's name is built only when it is reported.
 */
export function controlCharacterProblems(input: unknown): FieldProblem[] {
  const problems: FieldProblem[] = []
  const path: string[] = []
  const visit = (value: unknown): boolean => {
    if (typeof value === 'string') {
      if (!hasControlCharacters(value)) return true
      const field = path.join('.') || '(body)'
      if (!SECRET_FIELD.test(field)) problems.push({ field, constraint: 'control_characters', value })
      return problems.length < MAX_PROBLEMS
    }
    if (value === null || typeof value !== 'object') return true
    for (const key in value) {
      path.push(key)
      const more = visit((value as Record<string, unknown>)[key])
      path.pop()
      if (!more) return false
    }
    return true
  }
  visit(input)
  return problems
}

/**
 * The refusal of a failed parse: a rule's own code (see `answering`), else 400
 * `validation.failed` with the control-character problems first, then the schema's problems
 * of the other fields, in `order` (the declared parameters) when given.
 */
function refusal(result: z.ZodSafeParseResult<unknown>, input: unknown, controls: FieldProblem[], order?: readonly string[]): ApiError {
  const answer = result.success ? undefined : firstAnswer(result.error)
  if (answer) return answer
  const reported = new Set(controls.map((p) => p.field))
  let others = result.success ? [] : fieldProblems(result.error, input).filter((p) => !reported.has(p.field))
  if (order) {
    // A stable sort: a whole-query rule (channel requires group) lands beside its parameter.
    const places = new Map(order.map((name, i) => [name, i]))
    const rank = (p: FieldProblem) => places.get(p.field) ?? order.length
    others = others.map((p, i) => [p, i, rank(p)] as const).sort(([, i, a], [, j, b]) => a - b || i - j).map(([p]) => p)
  }
  return validationFailed([...controls, ...others])
}

/**
 * Parses input with a schema or throws 400 `validation.failed` with the field list (or the
 * code of a rule that answers its own). Control characters are refused here, once for
 * every request schema, before anything is stored.
 */
export function parseWith<T extends ZodType>(schema: T, input: unknown): z.output<T> {
  const controls = controlCharacterProblems(input)
  const result = schema.safeParse(input)
  if (controls.length === 0 && result.success) return result.data
  throw refusal(result, input, controls)
}

/** The parameters a query schema declares: its object's keys, below any refinement or transform. */
function parametersOf(schema: ZodType): string[] {
  let inner: unknown = schema
  while (inner instanceof z.ZodPipe) inner = inner.in
  if (!(inner instanceof z.ZodObject)) throw new TypeError('A query schema is an object of parameters.')
  return Object.keys(inner.shape)
}

export type QueryOptions = {
  /**
   * Refuse control characters in every parameter (as in bodies) before the schema's rules.
   * False where the schema's own rules refuse them, each with its constraint (a slug's
   * `pattern`, an enum's `enum`, q's `control_characters` of the trimmed value).
   */
  controlCharacters?: boolean
}

/**
 * A query string parsed with its route's schema, the one definition of the query: each
 * declared parameter is its first value (a repeated parameter's others are ignored, as are
 * undeclared parameters), and the schema's output is the handler's typed input. Refused as
 * `parseWith` does, the field list in the order the schema declares the parameters.
 */
export function parseQuery<T extends ZodType>(schema: T, query: URLSearchParams, { controlCharacters = true }: QueryOptions = {}): z.output<T> {
  const parameters = parametersOf(schema)
  const input: Record<string, string> = {}
  for (const name of parameters) {
    const value = query.get(name)
    if (value !== null) input[name] = value
  }
  const controls = controlCharacters ? controlCharacterProblems(input) : []
  const result = schema.safeParse(input)
  if (controls.length === 0 && result.success) return result.data
  throw refusal(result, input, controls, parameters)
}

/** Parsed queries by schema, configuration (the bounds some rules read) and raw query string. */
const parsedQueries = new WeakMap<ZodType, WeakMap<object, Map<string, unknown>>>()
const PARSED_QUERIES_KEPT = 1000

/**
 * parseQuery for a hot read route, remembered by the raw query string: a feed asked with the
 * same query again and again parses it once (the same output object every time; only a valid
 * query is kept, a refused one is refused again). Kept per configuration object, since rules
 * read bounds from it.
 */
export function parseSearch<T extends ZodType>(schema: T, search: string, options: QueryOptions = {}): z.output<T> {
  let byConfig = parsedQueries.get(schema)
  if (!byConfig) parsedQueries.set(schema, (byConfig = new WeakMap()))
  const config = getConfig()
  let kept = byConfig.get(config)
  if (!kept) byConfig.set(config, (kept = new Map()))
  const hit = kept.get(search)
  if (hit !== undefined) return hit as z.output<T>
  const parsed = parseQuery(schema, new URLSearchParams(search), options)
  // Frozen: every request of this query shares the object.
  Object.freeze(parsed)
  if (kept.size >= PARSED_QUERIES_KEPT) kept.clear()
  kept.set(search, parsed)
  return parsed
}
