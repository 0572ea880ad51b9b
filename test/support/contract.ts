/**
 * The OpenAPI contract, enforced: every /v1 answer a test receives is checked against the
 * operation and status the document declares for it (ajv, JSON Schema 2020-12). A status
 * the operation does not declare, an error code it does not list, a missing declared
 * header or a body off its schema fails the test that made the request.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsPlugin from 'ajv-formats'
import { match, type MatchFunction } from 'path-to-regexp'

import type { OpenApiDocument } from '../../src/edge/openapi'

type Json = Record<string, unknown>
type Operation = { method: string; path: string; match: MatchFunction; responses: Record<string, Json> }

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ?? addFormatsPlugin)

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')

export type ContractCheck = (answer: { method: string; path: string; status: number; headers: Headers; body: unknown; text: string }) => string[]

/** A checker over the document: the problems of one answer, or [] when it conforms. */
export function contractChecker(document: OpenApiDocument): ContractCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(document, 'openapi')
  const serverPrefix = String((document.servers as { url: string }[])[0]!.url).replace(/^\/api/, '')

  const operations: Operation[] = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const pattern = path.replace(/\{([^}]+)\}/g, ':$1')
      operations.push({ method: method.toUpperCase(), path, match: match(pattern, { decode: decodeURIComponent }), responses: op.responses as Record<string, Json> })
    }
  }

  const ERROR_ENVELOPE = `openapi#/${pointer('components', 'schemas', 'ErrorEnvelope')}`
  const validate = (ref: string, body: unknown): string[] => {
    const check = ajv.getSchema(ref)
    if (!check) return [`no schema at ${ref}`]
    if (check(body)) return []
    return (check.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
  }

  return ({ method, path, status, headers, body, text }) => {
    if (method === 'OPTIONS' || method === 'HEAD') return []
    const below = path.split('?')[0]!.slice(serverPrefix.length).replace(/\/+$/, '') || '/'
    const op = operations.find((o) => {
      if (o.method !== method) return false
      try {
        return o.match(below) !== false
      } catch {
        return false
      }
    })
    if (!op) {
      // No operation: the dispatcher's own 404 route.not_found / 405 route.method_not_allowed.
      if (status !== 404 && status !== 405) return [`${method} ${below} matches no operation, yet answered ${status}`]
      return validate(ERROR_ENVELOPE, body)
    }
    const response = op.responses[String(status)]
    if (!response) return [`${method} ${op.path} answered ${status}, which the document does not declare (declared: ${Object.keys(op.responses).join(', ')})`]
    const problems: string[] = []
    for (const [name, h] of Object.entries((response.headers ?? {}) as Record<string, { required?: boolean }>)) {
      if (h.required && !headers.has(name)) problems.push(`header ${name} is declared required but missing`)
    }
    if (!response.content) {
      if (text !== '') problems.push(`status ${status} declares no body, yet one came`)
      return problems
    }
    if (status >= 400) {
      // Errors: the one envelope schema (compiled once), and a code this status lists.
      const schema = (response.content as Json)['application/json'] as { schema: { allOf: [unknown, { properties: { error: { properties: { code: { enum: string[] } } } } }] } }
      const codes = schema.schema.allOf[1].properties.error.properties.code.enum
      const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code
      if (typeof code === 'string' && !codes.includes(code)) problems.push(`error code ${code} is not among the codes declared for ${status}: must be equal to one of the allowed values ${codes.join(', ')}`)
      return [...problems, ...validate(ERROR_ENVELOPE, body)]
    }
    const ref = `openapi#/${pointer('paths', op.path, op.method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`
    return [...problems, ...validate(ref, body)]
  }
}
