import type { RunningServer } from './server'

/** Calls the running server's /api/v1 with JSON and an optional bearer token. */
export async function api(server: RunningServer, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as any }
}
