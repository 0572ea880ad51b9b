/**
 * The OpenAPI 3.1 document of /api/v1, built from the route table: each route's request
 * schemas (the zod objects its handler parses with), its declared response data and error
 * codes, and what its declaration implies (authentication, permissions, validation, rate
 * limit, caching). Nothing here is written by hand per route, so the document cannot drift
 * from the code; the contract tests validate every API response against it.
 */
import { z, type ZodType } from 'zod'

import { ERROR_CODES, type ErrorCode } from './errorCodes'
import { API_PREFIX, type RouteSpec } from './route'

type Json = Record<string, unknown>
export type OpenApiDocument = Json & { openapi: string; paths: Record<string, Record<string, Json>>; components: Json & { schemas: Record<string, Json> } }

const SCHEMAS = '#/components/schemas/'
const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` })

/** zod → JSON Schema (2020-12, OpenAPI 3.1's dialect); named schemas (meta id) go to components. */
function converter(components: Record<string, Json>) {
  return (schema: ZodType, io: 'input' | 'output'): Json => {
    const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json
    delete out.$schema
    const defs = (out.$defs ?? {}) as Record<string, Json>
    delete out.$defs
    const rewrite = (value: Json): Json => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"${SCHEMAS}`)) as Json
    for (const [name, def] of Object.entries(defs)) components[name] ??= rewrite(def)
    // A named schema at the top comes back as its own definition: keep it as a reference.
    const id = z.globalRegistry.get(schema)?.id
    if (id) {
      components[id] ??= rewrite(out)
      return ref(id)
    }
    return rewrite(out)
  }
}

const envelopeComponents: Record<string, Json> = {
  Meta: {
    type: 'object',
    properties: { requestId: { type: 'string' }, durationMs: { type: 'integer', minimum: 0 } },
    required: ['requestId'],
  },
  Pagination: {
    type: 'object',
    properties: {
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 0 },
      total: { type: 'integer', minimum: 0 },
      hasMore: { type: 'boolean' },
    },
    required: ['offset', 'limit', 'total', 'hasMore'],
    additionalProperties: false,
  },
  FieldProblem: {
    type: 'object',
    description: 'One field a validation.failed answer names.',
    properties: { field: { type: 'string' }, constraint: { type: 'string' }, value: {} },
    required: ['field', 'constraint'],
  },
  ErrorBody: {
    type: 'object',
    properties: {
      code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable, machine-readable; branch on this.' },
      message: { type: 'string', description: 'Human-readable; not stable.' },
      details: { description: 'Shape-stable per code; the field list for validation.failed.' },
    },
    required: ['code', 'message'],
    additionalProperties: false,
  },
  ErrorEnvelope: {
    type: 'object',
    properties: { success: { const: false }, error: ref('ErrorBody'), meta: ref('Meta') },
    required: ['success', 'error', 'meta'],
    additionalProperties: false,
  },
}

const header = (description: string, schema: Json = { type: 'string' }, required = true) => ({ description, required, schema })
const HEADERS = {
  requestId: header('The request id: X-Request-Id as sent, else a generated `req_<ulid>`.'),
  retryAfter: header('Seconds to wait before trying again.', { type: 'integer', minimum: 0 }),
  etag: header('Weak entity tag over the answer; send it back as If-None-Match.'),
  version: header("The record's stored version; send it back as If-Match to update only that version."),
  cacheControl: header('`public, max-age=300, must-revalidate`.'),
  allow: header('The methods the path has.'),
}

/** `/content/:slug` → `/content/{slug}` (below the server URL /api/v1), and the parameter names in order. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = []
  const converted = path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    params.push(name)
    return `{${name}}`
  })
  return { path: converted, params }
}

function operationId(route: RouteSpec): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')
}

/** Every error code a route can answer: its own and those its declaration implies. */
export function errorCodesOf(route: RouteSpec): Set<ErrorCode> {
  const codes = new Set<ErrorCode>(route.responses.errors ?? [])
  const auth = route.permissions?.length ? 'required' : (route.auth ?? 'none')
  if (auth === 'required') codes.add('auth.missing_token')
  if (auth !== 'none') codes.add('auth.invalid_token')
  if (route.permissions?.length) codes.add('auth.forbidden')
  if (route.request?.body || route.request?.query || route.method !== 'get') codes.add('validation.failed')
  if (route.responses.rateLimited) codes.add('ratelimit.exceeded')
  if (route.responses.versioned && route.method !== 'get') codes.add('precondition.failed')
  // Any route may read past the database's time limit (MongoDB) or write (a rate-limit counter)
  // while writes are stopped (a log that could not be synced): 503 with Retry-After.
  codes.add('service.unavailable')
  codes.add('internal.error')
  return codes
}

/** Methods that read a JSON body: the wrapper answers 413 when it is over the size limit. */
const hasBody = (route: RouteSpec) => route.method !== 'get' && route.method !== 'delete'

function errorResponses(route: RouteSpec): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of errorCodesOf(route)) {
    const status = ERROR_CODES[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code].sort())
  }
  if (hasBody(route)) byStatus.set(413, ['validation.failed'])
  const out: Record<string, Json> = {}
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Json = { 'X-Request-Id': HEADERS.requestId }
    if (status === 429 || status === 503) headers['Retry-After'] = HEADERS.retryAfter
    out[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${status === 413 ? 'the body is over the size limit.' : ERROR_CODES[c].description}`).join('\n\n'),
      headers,
      content: {
        'application/json': {
          schema: {
            allOf: [ref('ErrorEnvelope'), { properties: { error: { properties: { code: { enum: codes } } } } }],
          },
        },
      },
    }
  }
  return out
}

function successResponse(route: RouteSpec, data: Json): Json {
  const { paginated, cached, headers: extra } = route.responses
  const properties: Json = { success: { const: true }, data, meta: ref('Meta') }
  const required = ['success', 'data', 'meta']
  if (paginated) {
    properties.pagination = ref('Pagination')
    required.push('pagination')
  }
  const headers: Json = { 'X-Request-Id': HEADERS.requestId }
  if (cached) Object.assign(headers, { ETag: HEADERS.etag, 'Cache-Control': HEADERS.cacheControl })
  if (route.responses.versioned) headers.ETag = HEADERS.version
  for (const [name, description] of Object.entries(extra ?? {})) headers[name] = header(description, { type: 'string' }, false)
  return {
    description: route.summary ?? 'Success',
    headers,
    content: { 'application/json': { schema: { type: 'object', properties, required, additionalProperties: false } } },
  }
}

/** The query schema's properties as `in: query` parameters. */
function queryParameters(schema: Json): Json[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>
  const required = new Set((schema.required ?? []) as string[])
  return Object.entries(properties).map(([name, s]) => {
    const { description, ...rest } = s
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest }
  })
}

/** HEAD on a GET route (src/edge/router): the GET answers' statuses and headers, no content. */
function headOperation(get: Json): Json {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, Json>).map(([status, r]) => [
      status,
      { description: r.description, headers: { ...(r.headers as Json), 'Content-Length': header('The length of the GET answer.', { type: 'integer' }, true) } },
    ]),
  )
  return {
    ...get,
    operationId: `head${String(get.operationId).slice('get'.length)}`,
    summary: `${String(get.summary ?? 'The GET answer')}: headers only`,
    responses,
  }
}

export type DocumentInfo = { title: string; version: string; description?: string }

export function buildOpenApiDocument(routes: readonly RouteSpec[], info: DocumentInfo): OpenApiDocument {
  const schemas: Record<string, Json> = { ...envelopeComponents }
  const convert = converter(schemas)
  const paths: Record<string, Record<string, Json>> = {}

  for (const route of routes) {
    const { path, params } = openApiPath(route.path)
    const paramSchema = route.request?.params ? convert(route.request.params, 'input') : undefined
    const paramProps = (paramSchema?.properties ?? {}) as Record<string, Json>
    const parameters: Json[] = params.map((name) => ({ name, in: 'path', required: true, schema: paramProps[name] ?? { type: 'string' } }))
    if (route.request?.query) parameters.push(...queryParameters(convert(route.request.query, 'input')))
    if (route.responses.cached) {
      parameters.push({ name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of a cached copy: 304 when unchanged.', schema: { type: 'string' } })
    }

    const operation: Json = {
      operationId: operationId(route),
      tags: [route.path.split('/')[1]],
      ...(route.summary ? { summary: route.summary } : {}),
    }
    const auth = route.permissions?.length ? 'required' : (route.auth ?? 'none')
    if (auth === 'required') operation.security = [{ bearerAuth: [] }]
    if (auth === 'optional') operation.security = [{}, { bearerAuth: [] }]
    if (auth === 'none') operation.security = []
    if (route.permissions?.length) {
      operation['x-permissions'] = [...route.permissions]
      operation.description = `Needs every one of these permissions: ${route.permissions.map((p) => `\`${p}\``).join(', ')}.`
    }
    if (route.responses.rateLimited) operation['x-rate-limited'] = true
    if (route.responses.versioned && route.method !== 'get') {
      parameters.push({ name: 'If-Match', in: 'header', required: false, description: "The ETag of the version read: the update applies only to that version (412 `precondition.failed` otherwise).", schema: { type: 'string' } })
    }
    if (parameters.length) operation.parameters = parameters
    if (route.request?.body) {
      const body = route.request.body
      operation.requestBody = {
        // A body every field of which is optional may be left out.
        required: !body.safeParse({}).success,
        content: { 'application/json': { schema: convert(body, 'input') } },
      }
    }
    const responses: Record<string, Json> = {
      [String(route.responses.status ?? 200)]: successResponse(route, convert(route.responses.data, 'output')),
    }
    if (route.responses.cached) {
      responses['304'] = {
        description: 'Not modified: the copy whose ETag was sent is current.',
        headers: { 'X-Request-Id': HEADERS.requestId, ETag: HEADERS.etag, 'Cache-Control': HEADERS.cacheControl },
      }
    }
    Object.assign(responses, errorResponses(route))
    operation.responses = responses
    ;(paths[path] ??= {})[route.method] = operation
    if (route.method === 'get') paths[path].head = headOperation(operation)
  }

  return {
    openapi: '3.1.1',
    info: {
      title: info.title,
      version: info.version,
      description:
        info.description ??
        'Every answer is an envelope: `{ success: true, data, pagination?, meta }` or `{ success: false, error: { code, message, details? }, meta }`. ' +
          'Branch on `error.code`, never on the message.',
    },
    servers: [{ url: `/api${API_PREFIX}`, description: 'This server' }],
    security: [],
    tags: [...new Set(routes.map((r) => r.path.split('/')[1]!))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token from /auth/login, /auth/register or /auth/refresh.' },
      },
    },
  }
}
