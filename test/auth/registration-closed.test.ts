import { describe, expect, it } from 'vitest'

process.env.AUTH_ALLOW_SELF_REGISTRATION = 'false'

import { testApp } from '../support/app'
import { adminSession, createUser, freshIp, login } from './helpers'

const newcomer = (n: string) => ({ email: `${n}@example.com`, username: n, password: 'newcomer-password-1' })

describe('registration gating (AUTH_ALLOW_SELF_REGISTRATION=false)', () => {
  it('refuses anonymous sign-up with 403 auth.forbidden and creates nothing', async () => {
    const app = await testApp()
    const before = await app.payload.count({ collection: 'users', overrideAccess: true })
    const res = await app.request('POST', '/v1/auth/register', { body: newcomer('anon'), headers: freshIp() })
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('auth.forbidden')
    expect((await app.payload.count({ collection: 'users', overrideAccess: true })).totalDocs).toBe(before.totalDocs)
    const meta = await app.request('GET', '/v1/meta')
    expect(meta.body.data.features.selfRegistration).toBe(false)
  })

  it('refuses a caller without user.invite (a member)', async () => {
    const app = await testApp()
    const member = await createUser(app, ['member'])
    const session = await login(app, member.email, member.password)
    const res = await app.request('POST', '/v1/auth/register', { body: newcomer('viamember'), token: session.accessToken, headers: freshIp() })
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('auth.forbidden')
  })

  it('admits a caller holding user.invite (a role with only that permission, and the admin)', async () => {
    const app = await testApp()
    const admin = await adminSession(app)
    const role = await app.request('POST', '/v1/roles', {
      token: admin.accessToken,
      body: { name: 'inviter', permissions: ['user.invite'] },
    })
    expect(role.status).toBe(201)
    const inviter = await createUser(app, ['inviter'])
    const session = await login(app, inviter.email, inviter.password)
    const res = await app.request('POST', '/v1/auth/register', { body: newcomer('invited'), token: session.accessToken, headers: freshIp() })
    expect(res.status).toBe(201)
    expect(res.body.data.user.roles.map((r: any) => r.name)).toEqual(['member'])
    const byAdmin = await app.request('POST', '/v1/auth/register', { body: newcomer('invited2'), token: admin.accessToken, headers: freshIp() })
    expect(byAdmin.status).toBe(201)
  })

  it('an invalid bearer token is 401, not a silent anonymous call', async () => {
    const app = await testApp()
    const res = await app.request('POST', '/v1/auth/register', { body: newcomer('bad'), token: 'x.y.z', headers: freshIp() })
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('auth.invalid_token')
  })
})
