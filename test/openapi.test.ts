/**
 * The OpenAPI contract: the document is a valid OpenAPI 3.1 document (a maintained
 * validator), it covers every route of the table with what the declarations imply, it is
 * served raw at /openapi.json with an ETag, the reference page at /docs uses only
 * same-origin assets, and the checker every API test goes through (test/support/app.ts)
 * refuses answers that are off the document.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { routes } from '../endpoints'
import { openApiDocument } from '../endpoints/reference'
import { openApiPath } from '../src/edge/openapi'
import { testApp } from './support/app'
import { contractChecker } from './support/contract'
import { startHttpServer, type RunningServer } from './support/httpServer'

type Op = { operationId: string; security?: unknown[]; parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, any> }

let server: RunningServer
beforeAll(async () => {
  await testApp()
  server = await startHttpServer()
})
afterAll(() => server.close())

const doc = () => openApiDocument()
const op = (path: string, method: string) => doc().paths[path]![method] as unknown as Op
const codesAt = (o: Op, status: number): string[] =>
  o.responses[String(status)].content['application/json'].schema.allOf[1].properties.error.properties.code.enum

describe('the OpenAPI document', () => {
  it('passes a maintained OpenAPI 3.1 validator', async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(doc()))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('has one operation per route (and HEAD beside each GET), with unique operation ids and every path parameter', () => {
    const ids = new Set<string>()
    for (const route of routes) {
      const { path, params } = openApiPath(route.path)
      const o = op(path, route.method)
      expect(o, `${route.method} ${route.path}`).toBeDefined()
      ids.add(o.operationId)
      const inPath = (o.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)
      expect(inPath).toEqual(params)
    }
    expect(ids.size).toBe(routes.length)
    const gets = routes.filter((r) => r.method === 'get')
    for (const route of gets) {
      const head = op(openApiPath(route.path).path, 'head')
      expect(head?.operationId, `HEAD ${route.path}`).toBe(`head${op(openApiPath(route.path).path, 'get').operationId.slice(3)}`)
      expect(head?.responses['200']?.content).toBeUndefined()
    }
    expect(Object.values(doc().paths).flatMap((m) => Object.keys(m))).toHaveLength(routes.length + gets.length)
  })

  it('derives security, errors, rate limits and caching from the declarations', () => {
    // Public, cached: no security, 304 and ETag.
    const meta = op('/meta', 'get')
    expect(meta.security).toEqual([])
    expect(meta.responses['304']).toBeDefined()
    expect(Object.keys(meta.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'X-Request-Id']))
    expect(op('/catalog', 'get').responses['304']).toBeDefined()
    // Permission routes: bearer, 401 with both token codes, 403 auth.forbidden, x-permissions.
    const approve = op('/content/{slug}/approve', 'post')
    expect(approve.security).toEqual([{ bearerAuth: [] }])
    expect([...codesAt(approve, 401)].sort()).toEqual(['auth.invalid_token', 'auth.missing_token'])
    expect(codesAt(approve, 403)).toEqual(['auth.forbidden'])
    expect(codesAt(approve, 422)).toEqual(['content.state_invalid'])
    expect((approve as unknown as Record<string, unknown>)['x-permissions']).toEqual(['content.approve'])
    // Optional auth: anonymous or bearer.
    expect(op('/content', 'get').security).toEqual([{}, { bearerAuth: [] }])
    // Rate-limited: 429 with Retry-After.
    const login = op('/auth/login', 'post')
    expect(codesAt(login, 429)).toEqual(['ratelimit.exceeded'])
    expect(login.responses['429'].headers['Retry-After'].required).toBe(true)
    // Bodies come from the handlers' zod schemas.
    const submit = op('/content/submit', 'post') as any
    const body = submit.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['title', 'url'])
    expect(body.additionalProperties).toBe(false)
    expect(submit.responses['201'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/ContentDto' })
    // Lists: pagination required, query parameters from the query schemas the handlers parse with.
    const list = op('/content', 'get') as any
    expect(list.responses['200'].content['application/json'].schema.required).toContain('pagination')
    expect(list.parameters.find((p: any) => p.name === 'sort').schema.enum).toEqual(['newest', 'oldest', 'alpha'])
    expect(doc().components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) })
  })
})

describe('the contract checker every API test goes through', () => {
  const check = () => contractChecker(doc())
  const headers = new Headers({ 'x-request-id': 'r' })

  it('accepts a conforming answer', () => {
    const body = { success: true, data: { status: 'ok' }, meta: { requestId: 'r', durationMs: 1 } }
    expect(check()({ method: 'GET', path: '/v1/health', status: 200, headers, body, text: JSON.stringify(body) })).toEqual([])
  })

  it('refuses a body off the schema, an undeclared status, an undeclared error code and a missing header', () => {
    const c = check()
    const wrongData = { success: true, data: { status: 'fine' }, meta: { requestId: 'r' } }
    expect(c({ method: 'GET', path: '/v1/health', status: 200, headers, body: wrongData, text: "x" }).join()).toMatch(/allowed values/)
    expect(c({ method: 'GET', path: '/v1/health', status: 418, headers, body: {}, text: '{}' }).join()).toMatch(/does not declare/)
    const undeclared = { success: false, error: { code: 'tag.not_found', message: 'm' }, meta: { requestId: 'r' } }
    expect(c({ method: 'GET', path: '/v1/content/abc', status: 404, headers, body: undeclared, text: 'x' }).join()).toMatch(/allowed values/)
    expect(c({ method: 'GET', path: '/v1/meta', status: 304, headers, body: undefined, text: '' }).join()).toMatch(/ETag/)
  })

  it('is wired into the test app: a live answer is checked', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/content/no-such-item')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('content.not_found')
  })
})

describe('GET /openapi.json over HTTP', () => {
  it('serves the document raw, public, with an ETag, and 304 on If-None-Match', async () => {
    const res = await fetch(`${server.origin}/openapi.json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const etag = res.headers.get('etag')
    expect(etag).toMatch(/^W\/".+"$/)
    const body = await res.json()
    expect(body.openapi).toBe('3.1.1')
    expect(body).not.toHaveProperty('success')
    expect(body).toEqual(JSON.parse(JSON.stringify(doc())))
    const again = await fetch(`${server.origin}/openapi.json`, { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
  })
})

describe('GET /docs over HTTP', () => {
  it('is an HTML page that loads only same-origin assets and points at /openapi.json', async () => {
    const res = await fetch(`${server.origin}/docs`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(refs.length).toBeGreaterThanOrEqual(3)
    for (const ref of refs) expect(ref).toMatch(/^\/docs\/assets\//)
    expect(html).not.toMatch(/https?:\/\//)
    const init = await fetch(`${server.origin}/docs/assets/init.js`)
    expect(await init.text()).toContain("url: '/openapi.json'")
  })

  it('serves the renderer from node_modules, and nothing else of the package', async () => {
    const js = await fetch(`${server.origin}/docs/assets/swagger-ui-bundle.js`)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await js.text()).toContain('SwaggerUIBundle')
    const css = await fetch(`${server.origin}/docs/assets/swagger-ui.css`)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect((await fetch(`${server.origin}/docs/assets/package.json`)).status).toBe(404)
    expect((await fetch(`${server.origin}/docs/assets/..%2F..%2Fpackage.json`)).status).toBe(404)
  })
})
