/**
 * The console's custom endpoints (/api/content/moderation/…, /api/tags/rename/…,
 * /api/users/login) answer like /api/v1: the envelope with meta.requestId, X-Request-Id,
 * one `request.completed` line, 400 `validation.failed` with details, enveloped 401/403.
 */
import { describe, expect, it } from 'vitest'

import { createUser, freshIp } from '../auth/helpers'
import { content, taxonomy } from '../content/helpers'
import type { Permission } from '../../src/auth/permissions'
import { type TestApp, testApp } from '../support/app'

type Caller = { cookie: string }

let ready: Promise<{ app: TestApp; approver: Caller; moderator: Caller; tagger: Caller }> | undefined

async function roleWith(app: TestApp, permissions: Permission[]): Promise<string> {
  const role = await app.payload.create({ collection: 'roles', data: { name: `console-${permissions.join('+')}`, permissions }, overrideAccess: true })
  return String(role.id)
}

async function caller(app: TestApp, permissions: Permission[]): Promise<Caller> {
  const user = await createUser(app, [await roleWith(app, permissions)])
  const res = await app.request('POST', '/users/login', { body: { email: user.email, password: user.password }, headers: freshIp() })
  expect(res.status, res.text).toBe(200)
  return { cookie: `payload-token=${/payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}` }
}

function setup() {
  ready ??= (async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    return {
      app,
      approver: await caller(app, ['content.moderate', 'content.approve']),
      moderator: await caller(app, ['content.moderate']),
      tagger: await caller(app, ['tag.manage']),
    }
  })()
  return ready
}

/** The `request.completed` lines written for one request id. */
const completedLines = (app: TestApp, requestId: string) => app.logs.filter((l) => l.msg === 'request.completed' && l.requestId === requestId)

const stored = async (app: TestApp, id: string) => (await app.payload.findByID({ collection: 'content', id, depth: 0, overrideAccess: true }))

describe('console endpoints on the API wrapper', () => {
  it('approve: the envelope with meta.requestId, X-Request-Id echoed, one request.completed line', async () => {
    const { app, approver } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null })
    const res = await app.request('POST', `/content/moderation/${item.id}/approve`, {
      headers: { cookie: approver.cookie, 'x-request-id': 'console-approve-1' },
      body: {},
    })
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('x-request-id')).toBe('console-approve-1')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.body).toMatchObject({ success: true, data: { id: item.id, slug: item.slug, status: 'approved' }, meta: { requestId: 'console-approve-1' } })
    expect(typeof res.body.meta.durationMs).toBe('number')
    expect(await stored(app, item.id)).toMatchObject({ status: 'approved' })
    const lines = completedLines(app, 'console-approve-1')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ route: 'POST /api/content/moderation/:id/approve', statusCode: 200, level: 'info' })
    expect(lines[0]!.userId).toBeTruthy()
  })

  it('reject: a bad body is 400 validation.failed with details; the item stays pending', async () => {
    const { app, approver } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null })
    const res = await app.request('POST', `/content/moderation/${item.id}/reject`, { headers: { cookie: approver.cookie }, body: { reason: 42, extra: true } })
    expect(res.status, res.text).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.error.code).toBe('validation.failed')
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'reason', constraint: 'type', value: 42 },
        { field: 'extra', constraint: 'unknown' },
      ]),
    )
    expect(res.body.meta.requestId).toBe(res.headers.get('x-request-id'))
    expect(completedLines(app, res.body.meta.requestId)).toMatchObject([{ statusCode: 400 }])
    expect((await stored(app, item.id)).status).toBe('pending')

    const malformed = await app.request('POST', `/content/moderation/${item.id}/reject`, {
      headers: { cookie: approver.cookie, 'content-type': 'application/json' },
      rawBody: '{"reason":',
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error).toMatchObject({ code: 'validation.failed', details: [{ field: '(body)', constraint: 'json' }] })
  })

  it('no session is 401 auth.missing_token, a missing permission 403 auth.forbidden, an unknown id 404: all enveloped', async () => {
    const { app, moderator } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null })
    const anonymous = await app.request('POST', `/content/moderation/${item.id}/approve`, { body: {} })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toMatchObject({ success: false, error: { code: 'auth.missing_token' }, meta: { requestId: anonymous.headers.get('x-request-id') } })
    const forbidden = await app.request('POST', `/content/moderation/${item.id}/approve`, { headers: { cookie: moderator.cookie }, body: {} })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toMatchObject({ success: false, error: { code: 'auth.forbidden' } })
    expect(completedLines(app, forbidden.body.meta.requestId)).toMatchObject([{ statusCode: 403, route: 'POST /api/content/moderation/:id/approve' }])
    expect((await stored(app, item.id)).status).toBe('pending')
  })

  it('an unknown id is 404 content.not_found (the id is never taken for a slug)', async () => {
    const { app, approver } = await setup()
    const item = await content(app.payload, { status: 'pending', approvedAt: null })
    const bySlug = await app.request('POST', `/content/moderation/${item.slug}/approve`, { headers: { cookie: approver.cookie }, body: {} })
    expect(bySlug.status).toBe(404)
    expect(bySlug.body.error.code).toBe('content.not_found')
    expect((await stored(app, item.id)).status).toBe('pending')
  })

  it('tag rename: impact and rename enveloped; a missing newSlug is 400 validation.failed (required)', async () => {
    const { app, tagger } = await setup()
    const tag = (await app.payload.find({ collection: 'tags', where: { slug: { equals: 'sql' } }, overrideAccess: true })).docs[0]!
    await content(app.payload, { tagSlugs: ['sql'] })
    const impact = await app.request('GET', `/tags/rename/${tag.id}`, { headers: { cookie: tagger.cookie } })
    expect(impact.status, impact.text).toBe(200)
    expect(impact.body).toMatchObject({ success: true, data: { contentCount: 1 }, meta: { requestId: impact.headers.get('x-request-id') } })
    expect(completedLines(app, impact.body.meta.requestId)).toMatchObject([{ route: 'GET /api/tags/rename/:id', statusCode: 200 }])
    const missing = await app.request('POST', `/tags/rename/${tag.id}`, { headers: { cookie: tagger.cookie }, body: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatchObject({ code: 'validation.failed', details: [{ field: 'newSlug', constraint: 'required' }] })
    const reserved = await app.request('POST', `/tags/rename/${tag.id}`, { headers: { cookie: tagger.cookie }, body: { newSlug: 'search' } })
    expect(reserved.status).toBe(409)
    expect(reserved.body.error.code).toBe('slug.reserved')
    const renamed = await app.request('POST', `/tags/rename/${tag.id}`, { headers: { cookie: tagger.cookie }, body: { newSlug: 'structured-query' } })
    expect(renamed.status, renamed.text).toBe(200)
    expect(renamed.body.data).toEqual({ slug: 'structured-query', contentCount: 1 })
  })

  it('console sign-in: failures are enveloped (plus Payload form errors), with X-Request-Id and one request.completed line', async () => {
    const { app } = await setup()
    const res = await app.request('POST', '/users/login', {
      body: { email: 'nobody@example.com', password: 'not-the-password' },
      headers: { ...freshIp(), 'x-request-id': 'console-login-1' },
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('x-request-id')).toBe('console-login-1')
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(res.body).toEqual({
      success: false,
      error: { code: 'auth.invalid_credentials', message: 'The email or password is incorrect.' },
      meta: { requestId: 'console-login-1' },
      errors: [{ message: 'The email or password is incorrect.' }],
    })
    expect(completedLines(app, 'console-login-1')).toMatchObject([{ route: 'POST /api/users/login', statusCode: 401 }])
    expect(app.rawLogs.some((l) => l.includes('not-the-password'))).toBe(false)
  })
})
