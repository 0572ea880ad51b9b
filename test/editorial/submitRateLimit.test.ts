// This file's environment: two submissions a minute per user.
process.env.RATE_LIMIT_SUBMIT = '2/60'

import { describe, expect, it } from 'vitest'

import { SYSTEM_GRANTOR } from '../../src/services/grants'
import { createUser } from '../../src/services/users'
import { tokenFor } from '../content/helpers'
import { testApp } from '../support/app'

describe('POST /content/submit rate limit', () => {
  it('allows the configured number per user, then 429 with Retry-After; other users are unaffected', async () => {
    const app = await testApp()
    const admin = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
    const token = await tokenFor([], String(admin.id))
    const body = (n: number) => ({ title: `Limited ${n}`, url: `https://example.com/${n}` })
    expect((await app.request('POST', '/v1/content/submit', { token, body: body(1) })).status).toBe(201)
    expect((await app.request('POST', '/v1/content/submit', { token, body: body(2) })).status).toBe(201)
    const third = await app.request('POST', '/v1/content/submit', { token, body: body(3) })
    expect(third.status).toBe(429)
    expect(third.body.error.code).toBe('ratelimit.exceeded')
    const retryAfter = Number(third.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect((await app.payload.count({ collection: 'content', where: { title: { equals: 'Limited 3' } }, overrideAccess: true })).totalDocs).toBe(0)
    const someone = await createUser(app.payload, { email: 'other@example.com', username: 'other', password: 'other-password-1' }, SYSTEM_GRANTOR)
    const other = await tokenFor([], String(someone.id))
    expect((await app.request('POST', '/v1/content/submit', { token: other, body: body(4) })).status).toBe(201)
  })
})
