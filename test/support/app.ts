import { getPayload, handleEndpoints, type Payload, type SanitizedConfig } from 'payload'

import { captureLogs } from '../../src/logging'

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
  /** Calls the real request handlers in-process: /v1 through the API dispatcher (as server.ts and the Next route do), the rest through Payload's REST handler. */
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
    const { apiRequestFromFetch, toResponse } = await import('../../src/http/fetchAdapter')
    const request: TestApp['request'] = async (method, path, options = {}) => {
      const headers = new Headers(options.headers)
      if (options.token) headers.set('authorization', `Bearer ${options.token}`)
      let body: string | undefined = options.rawBody
      if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers.set('content-type', 'application/json')
      }
      const request = new Request(`http://localhost:3000/api${path}`, { method, headers, body })
      const res =
        path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?')
          ? toResponse(await dispatchApi(apiRequestFromFetch(request, payload)))
          : await handleEndpoints({ config, request })
      const text = await res.text()
      let parsed: unknown = undefined
      try {
        parsed = text ? JSON.parse(text) : undefined
      } catch {
        parsed = undefined
      }
      return { status: res.status, headers: res.headers, body: parsed, text }
    }
    return { payload, config, request, logs, rawLogs }
  })()
  return app
}
