/**
 * Stale identities die on writes (issue 9, finding 5): every state-changing /api/v1 request
 * re-checks that the access token's subject exists and is active; reads stay stateless.
 */
import { SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'

import { adminSession, createUser, login } from '../auth/helpers'
import { taxonomy } from '../content/helpers'
import { type TestApp, testApp } from '../support/app'

let app: TestApp
let submissions = 0

beforeAll(async () => {
  app = await testApp()
  await taxonomy(app.payload)
})

/** A submission the API accepts from any active user. */
function submission() {
  submissions += 1
  return {
    title: `Stale identity probe ${submissions}`,
    url: `https://example.com/stale-${submissions}`,
    description: 'A probe.',
    tagSlugs: ['sql'],
    group: 'data',
    channel: 'web',
    platform: 'blog',
  }
}

/** A validly signed access token, as src/auth/accessToken.ts signs them, for any subject. */
async function signedToken(sub: string, permissions: string[]): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ permissions })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .setJti(`jti-${Math.random().toString(36).slice(2)}`)
    .sign(new TextEncoder().encode(process.env.JWT_ACCESS_SECRET!))
}

function expectInvalidToken(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(401)
  expect(res.body.error.code).toBe('auth.invalid_token')
}

const contentCountBy = async (userId: string) =>
  (await app.payload.count({ collection: 'content', where: { submittedBy: { equals: userId } }, overrideAccess: true })).totalDocs

describe('a deactivated user with an unexpired access token', () => {
  it('cannot submit (401 auth.invalid_token) but still reads', async () => {
    const member = await createUser(app, ['member'])
    const session = await login(app, member.email, member.password)
    const first = await app.request('POST', '/v1/content/submit', { token: session.accessToken, body: submission() })
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    const admin = await adminSession(app)
    expect((await app.request('DELETE', `/v1/users/${member.id}`, { token: admin.accessToken })).status).toBe(200)
    expectInvalidToken(await app.request('POST', '/v1/content/submit', { token: session.accessToken, body: submission() }))
    expect(await contentCountBy(member.id)).toBe(1)
    expect((await app.request('GET', '/v1/content', { token: session.accessToken })).status).toBe(200)
  })

  it('a deactivated admin cannot reactivate itself or write anything else', async () => {
    const other = await createUser(app, ['admin'])
    const session = await login(app, other.email, other.password)
    const admin = await adminSession(app)
    expect((await app.request('DELETE', `/v1/users/${other.id}`, { token: admin.accessToken })).status).toBe(200)
    expectInvalidToken(await app.request('PATCH', `/v1/users/${other.id}`, { token: session.accessToken, body: { isActive: true } }))
    expectInvalidToken(await app.request('POST', '/v1/roles', { token: session.accessToken, body: { name: 'backdoor', permissions: ['user.manage'] } }))
    const stored = await app.payload.findByID({ collection: 'users', id: other.id, depth: 0, overrideAccess: true })
    expect(stored.isActive).toBe(false)
    expect((await app.payload.count({ collection: 'roles', where: { name: { equals: 'backdoor' } }, overrideAccess: true })).totalDocs).toBe(0)
    // Reads stay stateless until the token expires.
    expect((await app.request('GET', '/v1/content', { token: session.accessToken })).status).toBe(200)
  })

  it('an active user with the same kind of token writes normally', async () => {
    const member = await createUser(app, ['member'])
    const session = await login(app, member.email, member.password)
    expect((await app.request('POST', '/v1/content/submit', { token: session.accessToken, body: submission() })).status).toBe(201)
  })
})

describe('a validly signed token whose subject names no user', () => {
  it('is 401 auth.invalid_token on writes, never 500, and reads still answer', async () => {
    const ghost = 'abcdef0123456789abcdef01'
    const token = await signedToken(ghost, ['content.submit', 'user.manage', 'role.manage'])
    expectInvalidToken(await app.request('POST', '/v1/content/submit', { token, body: submission() }))
    expectInvalidToken(await app.request('PATCH', `/v1/users/${ghost}`, { token, body: { isActive: true } }))
    expectInvalidToken(await app.request('POST', '/v1/roles', { token, body: { name: 'ghostrole', permissions: [] } }))
    expect(await contentCountBy(ghost)).toBe(0)
    // Not a hex id at all: still 401, never 500.
    const odd = await signedToken('not-an-id', ['content.submit'])
    expectInvalidToken(await app.request('POST', '/v1/content/submit', { token: odd, body: submission() }))
    // Reads may stay stateless, but nothing answers 500.
    expect((await app.request('GET', '/v1/content', { token })).status).toBe(200)
    expectInvalidToken(await app.request('GET', '/v1/auth/me', { token }))
    expect((await app.request('GET', '/v1/users', { token })).status).toBe(200)
  })
})
