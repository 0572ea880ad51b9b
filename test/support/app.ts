import { getPayload, handleEndpoints, type Payload, type SanitizedConfig } from 'payload'

import { captureLogs } from '../../src/platform/logging'

export type ApiResponse = {
  status: number
  headers: Headers
  body: any
  text: string
}

export type RequestOptions = { body?: unknown; rawBody?: string; headers?: Record<string, string>; token?: string }

export type TestApp = {
  payload: Payload
  config: SanitizedConfig
  /**
   * Calls the real request handlers in-process: /v1 through the API dispatcher (as server.ts and the Next route do), the rest through Payload's REST handler.
   * Every /v1 answer is validated against the OpenAPI document (test/support/contract): a mismatch throws.
   */
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>
  /** Every log line written since the app started, parsed. */
  logs: Record<string, any>[]
  rawLogs: string[]
}

let app: Promise<TestApp> | undefined

/** The app for this test file: one Payload instance on this file's fresh database. */
export function testApp(): Promise<TestApp> {
  app ??= (async () => {
    const rawLogs: string[] = []
    const logs: Record<string, any>[] = []
    captureLogs({
      write(line: string) {
        rawLogs.push(line)
        try {
          logs.push(JSON.parse(line))
        } catch {
          /* not a JSON line */
        }
      },
    })
    const config = await (await import('../../payload.config')).default
    const payload = await getPayload({ config })
    const { dispatchApi } = await import('../../endpoints')
    const { apiRequestFromFetch, toResponse } = await import('../../src/edge/fetchAdapter')
    const { openApiDocument } = await import('../../endpoints/reference')
    const { contractChecker } = await import('./contract')
    // As Next's api/[...slug] route serves Payload's REST (app/(payload)/api/[...slug]/route.ts).
    const { guardPayloadRest } = await import('../../src/edge/payloadRestGuard')
    const payloadRest = guardPayloadRest(config, (request: Request) => handleEndpoints({ config, request }))
    const checkContract = contractChecker(openApiDocument())
    const request: TestApp['request'] = async (method, path, options = {}) => {
      const headers = new Headers(options.headers)
      if (options.token) headers.set('authorization', `Bearer ${options.token}`)
      // As a browser sends a write of the console's own pages: with their Origin (src/edge/crossOrigin).
      if (headers.has('cookie') && !headers.has('origin') && !['GET', 'HEAD'].includes(method.toUpperCase())) headers.set('origin', 'http://localhost:3000')
      let body: string | undefined = options.rawBody
      if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers.set('content-type', 'application/json')
      }
      const request = new Request(`http://localhost:3000/api${path}`, { method, headers, body })
      const isApi = path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?')
      const res = isApi ? toResponse(await dispatchApi(apiRequestFromFetch(request, payload))) : await payloadRest(request, undefined)
      const text = await res.text()
      let parsed: unknown = undefined
      try {
        parsed = text ? JSON.parse(text) : undefined
      } catch {
        parsed = undefined
      }
      if (isApi) {
        // Every /v1 answer must be what the OpenAPI document says this operation answers.
        const problems = checkContract({ method: method.toUpperCase(), path, status: res.status, headers: res.headers, body: parsed, text })
        if (problems.length > 0) {
          throw new Error(`OpenAPI contract: ${method.toUpperCase()} /api${path} answered ${res.status}:\n  ${problems.join('\n  ')}\n${text.slice(0, 500)}`)
        }
      }
      return { status: res.status, headers: res.headers, body: parsed, text }
    }
    return { payload, config, request, logs, rawLogs }
  })()
  return app
}
