/** The typed client against the real server over HTTP, and counters read from its log lines. */
import { createClient, memoryTokenStore, type TokenStore } from '../../client/src'
import { testApp } from '../support/app'
import type { RunningServer } from '../support/httpServer'

/** `request.completed` lines the server wrote for one route (`POST /api/v1/auth/refresh`). */
export async function completedLines(route: string): Promise<{ statusCode: number }[]> {
  const app = await testApp()
  return app.logs.filter((l) => l.msg === 'request.completed' && l.route === route) as { statusCode: number }[]
}

export function clientFor(server: RunningServer, opts: { store?: TokenStore; fetch?: typeof fetch } = {}) {
  const store = opts.store ?? memoryTokenStore()
  const ended: number[] = []
  const client = createClient({ baseUrl: server.origin, store, fetch: opts.fetch, onSessionEnded: () => ended.push(Date.now()) })
  return { client, store, ended }
}
