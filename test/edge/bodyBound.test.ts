/**
 * A route's body limit is the largest body it declares (src/edge/bodyBound): it must never be
 * below a body a client may really send. For every /api/v1 route with a declared body, the
 * largest instance of its published JSON Schema, written the longest way a JSON encoder can
 * (every character the 12-byte escape of an emoji, four spaces of indentation a level), fits.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

import { routes } from '../../endpoints'
import { largestBodyBytes, routeBodyLimit } from '../../src/edge/bodyBound'

type Schema = { [key: string]: any }

/** The largest value a JSON Schema admits, characters as emoji (one code point, two UTF-16 units). */
function largestValue(schema: Schema, defs: Record<string, Schema>): unknown {
  if (schema.$ref) return largestValue(defs[schema.$ref.replace('#/$defs/', '')]!, defs)
  if (schema.anyOf) return schema.anyOf.map((s: Schema) => largestValue(s, defs)).sort((a: unknown, b: unknown) => escaped(b).length - escaped(a).length)[0]
  if ('const' in schema) return schema.const
  if (schema.enum) return [...schema.enum].sort((a, b) => escaped(b).length - escaped(a).length)[0]
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  if (type === 'string') return '😀'.repeat(schema.maxLength)
  if (type === 'integer' || type === 'number') return -9007199254740991
  if (type === 'boolean') return false
  if (type === 'null') return null
  if (type === 'array') return Array.from({ length: schema.maxItems }, () => largestValue(schema.items, defs))
  if (type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, largestValue(v as Schema, defs)]))
  throw new Error(`no largest value for ${JSON.stringify(schema)}`)
}

/** JSON as an ASCII-only, indenting encoder writes it (Python's json.dumps(indent=4) by default). */
const escaped = (value: unknown) => JSON.stringify(value, null, 4).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

const bounded = routes.filter((r) => r.request?.body && largestBodyBytes(r.request.body) !== undefined)

describe('a route body limit holds every body the route declares', () => {
  it('most routes with a body have a bound of their own, the anonymous ones among them', () => {
    expect(bounded.map((r) => r.path)).toEqual(expect.arrayContaining(['/auth/login', '/auth/refresh', '/auth/register', '/slug/suggest', '/content/submit', '/content/:slug/reject', '/tags']))
  })

  it.each(bounded.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s: its largest body, escaped and indented, fits', (_name, route) => {
    const json = z.toJSONSchema(route.request!.body!, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Schema
    const body = escaped(largestValue(json, json.$defs ?? {}))
    const limit = routeBodyLimit(route.request!.body, Number.MAX_SAFE_INTEGER)
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(limit)
    // And the bound is not loose by orders of magnitude: within 2x of that body.
    expect(limit).toBeLessThan(2 * Buffer.byteLength(body) + 1024)
  })

  it('a body without a bound (a string with no maxLength, a list with no maxItems) keeps the server-wide limit', () => {
    expect(routeBodyLimit(z.object({ free: z.string() }), 131072)).toBe(131072)
    expect(routeBodyLimit(z.object({ list: z.array(z.string().max(3)) }), 131072)).toBe(131072)
    expect(routeBodyLimit(z.object({ list: z.array(z.string().max(3)).max(2) }), 131072)).toBeLessThan(1024)
  })
})
