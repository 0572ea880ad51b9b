/**
 * Console writes only from the service's own origin (src/edge/crossOrigin), over real HTTP:
 * with a console session cookie, a write whose Origin (else Referer) is not this service's is
 * 403 `auth.cross_origin` and changes nothing; the review's two accepted writes (a multipart
 * POST /api/tags from https://evil.example, a bodiless reject from `Origin: null`) and a
 * same-site origin (another port of the host, one CORS allows for the API) among them. Reads,
 * same-origin writes and bearer-token calls (the extension) are unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { ADMIN, consoleCookie, createUser, login } from '../auth/helpers'
import { testApp } from '../support/app'
import { startHttpServer, type RunningServer } from '../support/httpServer'

let server: RunningServer
let cookie: string
let memberToken: string
let pendingId: string

beforeAll(async () => {
  server = await startHttpServer()
  const app = await testApp()
  cookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
  const member = await createUser(app)
  memberToken = (await login(app, member.email, member.password)).accessToken
  const submitted = await app.request('POST', '/v1/content/submit', { token: memberToken, body: { title: 'Cross-origin target', url: 'https://example.com/cross-origin' } })
  expect(submitted.status).toBe(201)
  pendingId = submitted.body.data.id
  topicId = String((await app.payload.find({ collection: 'facets', where: { key: { equals: 'topic' } }, overrideAccess: true })).docs[0]!.id)
}, 120_000)
afterAll(() => server?.close())

async function call(method: string, path: string, headers: Record<string, string>, body?: FormData | string) {
  const res = await fetch(`${server.origin}${path}`, { method, headers, body, redirect: 'manual' })
  return { status: res.status, body: (await res.json().catch(() => null)) as any }
}

let topicId: string
const tagForm = (label: string) => {
  const form = new FormData()
  form.append('_payload', JSON.stringify({ label, slug: label.toLowerCase().replace(/[^a-z0-9]+/g, '-'), facet: topicId }))
  return form
}

async function tagExists(label: string) {
  const { payload } = await testApp()
  return (await payload.count({ collection: 'tags', where: { label: { equals: label } }, overrideAccess: true })).totalDocs > 0
}

async function statusOf(id: string) {
  const { payload } = await testApp()
  return (await payload.findByID({ collection: 'content', id, overrideAccess: true })).status
}

const REFUSED = {
  success: false,
  error: { code: 'auth.cross_origin', details: [{ field: 'origin', constraint: 'same_origin' }] },
  errors: [{ message: 'This request must come from the console’s own origin.' }],
}

describe('cookie-authenticated writes from another origin: 403, nothing changes', () => {
  it.each([
    ['https://evil.example', {}],
    ['null', {}],
    ['http://localhost:5173 (same site, another port; allowed by CORS for the API)', { origin: 'http://localhost:5173' }],
    ['no Origin, a foreign Referer', { origin: undefined, referer: 'https://evil.example/page' }],
    ['no Origin and no Referer', { origin: undefined }],
  ])('multipart POST /api/tags, Origin %s', async (name, override: Record<string, string | undefined>) => {
    const label = `Cross ${name.slice(0, 12)} ${Math.random().toString(36).slice(2, 8)}`
    const headers: Record<string, string> = { cookie }
    const origin = 'origin' in override ? override.origin : name
    if (origin !== undefined) headers.origin = origin
    if (override.referer) headers.referer = override.referer
    const answer = await call('POST', '/api/tags', headers, tagForm(label))
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject(REFUSED)
    expect(await tagExists(label)).toBe(false)
  })

  it.each(['https://evil.example', 'null'])('bodiless POST /api/content/moderation/:id/reject, Origin %s: the item stays pending', async (origin) => {
    const answer = await call('POST', `/api/content/moderation/${pendingId}/reject`, { cookie, origin })
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject(REFUSED)
    expect(await statusOf(pendingId)).toBe('pending')
  })

  it.each([
    ['https:// for an http server (the scheme differs)', (origin: string) => origin.replace('http://', 'https://')],
    ['another port of the same host', (origin: string) => origin.replace(/:(\d+)$/, (_, p) => `:${Number(p) + 1}`)],
  ])('Origin %s: 403, nothing written (issue 52.8)', async (_name, to) => {
    const label = `Scheme ${Math.random().toString(36).slice(2, 8)}`
    const answer = await call('POST', '/api/tags', { cookie, origin: to(server.origin) }, tagForm(label))
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject(REFUSED)
    expect(await tagExists(label)).toBe(false)
  })

  it.each([
    ['payload-token =<jwt>', (c: string) => c.replace('payload-token=', 'payload-token =')],
    ['a space and another cookie first', (c: string) => `theme=dark;   ${c.replace('payload-token=', 'payload-token  =')}`],
    ['a tab before the name', (c: string) => `a=1;\t${c}`],
  ])('a session cookie written as %s: still the console’s session, still refused from another origin (issue 52.8)', async (_name, shape) => {
    const variant = shape(cookie)
    // Payload authenticates it: the gate must see it too.
    const { payload } = await testApp()
    const { user } = await payload.auth({ headers: new Headers({ cookie: variant }) })
    expect(user?.email).toBe(ADMIN.email)
    const label = `Variant ${Math.random().toString(36).slice(2, 8)}`
    const answer = await call('POST', '/api/tags', { cookie: variant, origin: 'https://evil.example' }, tagForm(label))
    expect(answer.status).toBe(403)
    expect(await tagExists(label)).toBe(false)
  })

  it('the gate finds a session wherever Payload’s authentication does (a contract with its cookie parser)', async () => {
    const { payload } = await testApp()
    const { hasSessionCookie } = await import('../../src/edge/crossOrigin')
    const token = /payload-token=([^;]+)/.exec(cookie)![1]!
    const shapes = [
      `payload-token=${token}`,
      `payload-token =${token}`,
      ` payload-token= ${token}`,
      `x=1;payload-token=${token}`,
      `x=1; payload-token=${token}; y=2`,
      `x=%;payload-token=${token}`,
      `payload-token=${token};payload-token=`,
      `Payload-Token=${token}`,
      `payload-token2=${token}`,
      `xpayload-token=${token}`,
      `payload-token${token}`,
    ]
    for (const shape of shapes) {
      const { user } = await payload.auth({ headers: new Headers({ cookie: shape }) })
      // Whenever Payload would sign this request in, the gate counts it as a session (the reverse may err on the safe side).
      if (user) expect(hasSessionCookie(new Headers({ cookie: shape })), shape).toBe(true)
    }
  })

  it('a server action (POST /admin with Next-Action) from another origin: 403 before Next sees it', async () => {
    const answer = await call('POST', '/admin', { cookie, origin: 'https://evil.example', 'next-action': '0'.repeat(40), 'content-type': 'text/plain;charset=UTF-8' }, '[]')
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject(REFUSED)
  })
})

describe('what the rule leaves alone', () => {
  it('a write from the own origin (Origin, or only a Referer of it) goes through', async () => {
    const one = `Same origin ${Math.random().toString(36).slice(2, 8)}`
    expect((await call('POST', '/api/tags', { cookie, origin: server.origin }, tagForm(one))).status).toBe(201)
    expect(await tagExists(one)).toBe(true)
    const two = `Same referer ${Math.random().toString(36).slice(2, 8)}`
    expect((await call('POST', '/api/tags', { cookie, referer: `${server.origin}/admin/collections/tags/create` }, tagForm(two))).status).toBe(201)
    expect(await tagExists(two)).toBe(true)
  })

  it('a read with the cookie from another origin is answered (no CORS grant lets that page read it)', async () => {
    const answer = await call('GET', '/api/tags?limit=1', { cookie, origin: 'https://evil.example' })
    expect(answer.status).toBe(200)
  })

  it('the extension: bearer-token writes from its own origin, with no cookie', async () => {
    const answer = await fetch(`${server.origin}/api/v1/content/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${memberToken}`, origin: 'chrome-extension://abcdefghijklmnop', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'From the extension', url: 'https://example.com/from-the-extension' }),
    })
    expect(answer.status).toBe(201)
    expect(answer.headers.get('access-control-allow-origin')).toBe('chrome-extension://abcdefghijklmnop')
  })

  it('a sign-in (no session cookie yet) is not this rule’s business', async () => {
    const answer = await call('POST', '/api/users/login', { origin: 'https://evil.example', 'content-type': 'application/json' }, JSON.stringify({ email: ADMIN.email, password: 'wrong-password-123' }))
    expect(answer.status).toBe(401)
  })
})
