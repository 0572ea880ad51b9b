/**
 * The largest body a route declares: every field at its longest, every character written as the
 * longest JSON escape of a character (`\ud83d\ude00`: 12 bytes a code point, as an ASCII-only
 * encoder writes an emoji), every value indented. A body larger than that cannot be one the
 * route reads, so the wrapper refuses it unread (413) instead of parsing up to the server-wide
 * limit first: an anonymous sign-in's body is read to about 19 KiB, not to 128 KiB.
 * Derived from the same JSON Schema the OpenAPI document publishes; anything without a bound
 * (a string without maxLength, an array without maxItems, a record, `any`) leaves the route at
 * the server-wide limit. Members a schema does not declare count for nothing: a body is held
 * to what the route says it reads.
 */
import { z, type ZodType } from 'zod'

type Schema = { [key: string]: unknown }

/** Bytes of the longest JSON escape of one code point. */
const BYTES_PER_CHARACTER = 12
/** Indentation and a line break before each value, as a pretty-printing encoder writes. */
const WHITESPACE_PER_VALUE = 16
/** A number's longest text (`-1.7976931348623157e+308`), a boolean's, null's. */
const SCALAR_BYTES = { number: 24, integer: 24, boolean: 5, null: 4 } as const

const string = (length: number) => 2 + BYTES_PER_CHARACTER * length

/** The longest JSON text of a value of `schema`, or undefined when it has no bound. */
function largest(schema: Schema | boolean | undefined, defs: Record<string, Schema>, depth: number): number | undefined {
  if (typeof schema !== 'object' || schema === null || depth > 16) return undefined
  if (typeof schema.$ref === 'string') return largest(defs[schema.$ref.replace('#/$defs/', '')], defs, depth + 1)
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (choices) return most(choices.map((choice) => largest(choice, defs, depth + 1)))
  if ('const' in schema) return WHITESPACE_PER_VALUE + encoded(schema.const)
  if (Array.isArray(schema.enum)) return WHITESPACE_PER_VALUE + Math.max(...schema.enum.map(encoded))
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]
  return most(types.map((type) => largestOfType(type, schema, defs, depth)))
}

function largestOfType(type: string, schema: Schema, defs: Record<string, Schema>, depth: number): number | undefined {
  if (type in SCALAR_BYTES) return WHITESPACE_PER_VALUE + SCALAR_BYTES[type as keyof typeof SCALAR_BYTES]
  if (type === 'string') return typeof schema.maxLength === 'number' ? WHITESPACE_PER_VALUE + string(schema.maxLength) : undefined
  if (type === 'array') {
    const item = largest(schema.items as Schema, defs, depth + 1)
    if (typeof schema.maxItems !== 'number' || item === undefined) return undefined
    return WHITESPACE_PER_VALUE + 2 + schema.maxItems * (item + 1)
  }
  if (type === 'object') {
    let total = WHITESPACE_PER_VALUE + 2
    for (const [key, value] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      const member = largest(value, defs, depth + 1)
      if (member === undefined) return undefined
      total += string(key.length) + 2 + member
    }
    return total
  }
  return undefined
}

/** A literal's longest JSON text: its strings' characters each at the longest escape. */
function encoded(value: unknown): number {
  return typeof value === 'string' ? string(value.length) : JSON.stringify(value).length
}

const most = (sizes: (number | undefined)[]) => (sizes.length === 0 || sizes.includes(undefined) ? undefined : Math.max(...(sizes as number[])))

const bounds = new WeakMap<ZodType, number | null>()

/** The largest body `schema` declares in bytes, or undefined when it has no bound (computed once a schema). */
export function largestBodyBytes(schema: ZodType): number | undefined {
  let bound = bounds.get(schema)
  if (bound === undefined) {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Schema
    bound = largest(json, (json.$defs ?? {}) as Record<string, Schema>, 0) ?? null
    bounds.set(schema, bound)
  }
  return bound ?? undefined
}

/** The body limit of a route reading `schema`: its largest declared body, within the server-wide limit. */
export function routeBodyLimit(schema: ZodType | undefined, serverLimit: number): number {
  const bound = schema ? largestBodyBytes(schema) : undefined
  return bound === undefined ? serverLimit : Math.min(bound, serverLimit)
}
