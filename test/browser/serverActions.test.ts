/**
 * The console's server function over HTTP against the production build: a refused call answers
 * with its status, never Next's 500 (the review's anonymous calls with made-up arguments were
 * 500s with a digest). No session cookie: 401 at the edge; a body that is no JSON array: 400;
 * no such server function: 404; a call Payload refuses for want of a session: 401. The console's
 * own calls (a signed-in user's) still work.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { ADMIN, type RunningServer, startServer } from './support/server'

let server: RunningServer
let action: string
let session: string

beforeAll(async () => {
  server = await startServer()
  const manifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../.next/server/server-reference-manifest.json'), 'utf8'))
  action = Object.entries(manifest.node as Record<string, { filename: string }>).find(([, v]) => v.filename === 'app/(payload)/layout.tsx')![0]
  const login = await fetch(`${server.baseUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })
  expect(login.status).toBe(200)
  session = /payload-token=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0]
}, 180_000)
afterAll(() => server?.stop())

async function call(body: string, cookie?: string) {
  const res = await fetch(`${server.baseUrl}/admin`, {
    method: 'POST',
    headers: {
      'next-action': action,
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      origin: server.baseUrl,
      ...(cookie ? { cookie } : {}),
    },
    body,
  })
  return { status: res.status, text: await res.text() }
}

const MADE_UP = ['garbage', '["x"]', '[{"name":"nope","args":1}]', '[{"name":"render-list","args":{"collectionSlug":"users"}}]', '']

describe('server actions refused with their status', () => {
  it.each(MADE_UP)('anonymous, body %j: 401 auth.missing_token before Next', async (body) => {
    const answer = await call(body)
    expect(answer.status).toBe(401)
    expect(JSON.parse(answer.text)).toMatchObject({ success: false, error: { code: 'auth.missing_token' } })
  })

  it.each(['garbage', '{"name":"form-state"}', ''])('a forged session cookie, a body that is no JSON array (%j): 400', async (body) => {
    const answer = await call(body, 'payload-token=forged')
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'validation.failed', details: [{ field: '(body)', constraint: 'json' }] } })
  })

  it.each([
    ['["x"]', 404],
    ['[{"name":"nope","args":1}]', 404],
    ['[{"name":"render-list","args":{"collectionSlug":"users"}}]', 401],
    ['[{"name":"render-document","args":{"collectionSlug":"users","docID":"zz"}}]', 401],
  ])('a forged session cookie, %s: %i', async (body, status) => {
    expect((await call(body, 'payload-token=forged')).status).toBe(status)
  })

  it("the console's own call with a session: 200", async () => {
    const answer = await call('[{"name":"render-list","args":{"collectionSlug":"tags","disableActions":true,"query":{"limit":"1"}}}]', session)
    expect(answer.status).toBe(200)
  })
})
