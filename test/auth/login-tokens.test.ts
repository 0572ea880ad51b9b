import argon2 from 'argon2'
import { SignJWT } from 'jose'
import { describe, expect, it, vi } from 'vitest'

import { testApp } from '../support/app'
import { ADMIN, decodeJwt, expectNoSecrets, freshIp, USER_DTO_KEYS } from './helpers'

const ACCESS_SECRET = new TextEncoder().encode(process.env.JWT_ACCESS_SECRET!)
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')

describe('register, login, me and access tokens', () => {
  const alice = { email: 'Alice@Example.com', username: 'alice', password: 'correct horse battery' }

  it('registers: 201 with accessToken, refreshToken and the user DTO (member role, no hash)', async () => {
    const app = await testApp()
    const res = await app.request('POST', '/v1/auth/register', { body: alice, headers: freshIp() })
    expect(res.status).toBe(201)
    expect(res.headers.get('set-cookie')).toBeNull()
    const { accessToken, refreshToken, user } = res.body.data
    expect(Object.keys(res.body.data).sort()).toEqual(['accessToken', 'refreshToken', 'user'])
    expect(Object.keys(user).sort()).toEqual(USER_DTO_KEYS)
    expect(user.email).toBe('alice@example.com')
    expect(user.id).toMatch(/^[0-9a-f]{24}$/)
    expect(user.isActive).toBe(true)
    expect(user.roles.map((r: any) => r.name)).toEqual(['member'])
    expect(Object.keys(user.roles[0]).sort()).toEqual(['id', 'name'])
    expect(refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const { header, payload } = decodeJwt(accessToken)
    expect(header.alg).toBe('HS256')
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'jti', 'permissions', 'sub'])
    expect(payload.sub).toBe(user.id)
    expect(payload.permissions).toEqual(['content.submit'])
    expect(payload.exp - payload.iat).toBe(900)
  })

  it('rejects a duplicate email (409 user.email_taken) and username (409 user.username_taken)', async () => {
    const app = await testApp()
    const dupEmail = await app.request('POST', '/v1/auth/register', {
      body: { ...alice, username: 'alice2', email: 'alice@example.com' },
      headers: freshIp(),
    })
    expect(dupEmail.status).toBe(409)
    expect(dupEmail.body.error.code).toBe('user.email_taken')
    const dupName = await app.request('POST', '/v1/auth/register', {
      body: { ...alice, email: 'other@example.com' },
      headers: freshIp(),
    })
    expect(dupName.status).toBe(409)
    expect(dupName.body.error.code).toBe('user.username_taken')
  })

  it('validates the body: short password and bad email, never echoing the password', async () => {
    const app = await testApp()
    const res = await app.request('POST', '/v1/auth/register', {
      body: { email: 'nope', username: 'bob', password: 'short-pw' },
      headers: freshIp(),
    })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation.failed')
    const fields = res.body.error.details.map((d: any) => d.field).sort()
    expect(fields).toEqual(['email', 'password'])
    const pw = res.body.error.details.find((d: any) => d.field === 'password')
    expect(pw).toEqual({ field: 'password', constraint: 'min' })
    expect(res.text).not.toContain('short-pw')
  })

  it('logs in; GET /auth/me answers { user, permissions } with the effective sorted list', async () => {
    const app = await testApp()
    const res = await app.request('POST', '/v1/auth/login', { body: ADMIN, headers: freshIp() })
    expect(res.status).toBe(200)
    expect(res.headers.get('set-cookie')).toBeNull()
    const me = await app.request('GET', '/v1/auth/me', { token: res.body.data.accessToken })
    expect(me.status).toBe(200)
    expect(Object.keys(me.body.data).sort()).toEqual(['permissions', 'user'])
    expect(me.body.data.user.email).toBe('admin@example.com')
    expect(me.body.data.permissions).toEqual([
      'catalog.manage',
      'content.approve',
      'content.delete',
      'content.moderate',
      'content.submit',
      'role.manage',
      'tag.manage',
      'user.invite',
      'user.manage',
    ])
    expect(decodeJwt(res.body.data.accessToken).payload.permissions).toEqual(me.body.data.permissions)
  })

  it('fails login identically for an unknown email, a wrong password and an inactive user', async () => {
    const app = await testApp()
    // An inactive user with a known password.
    const reg = await app.request('POST', '/v1/auth/register', {
      body: { email: 'gone@example.com', username: 'gone', password: 'gone-password-12' },
      headers: freshIp(),
    })
    await app.payload.update({ collection: 'users', id: reg.body.data.user.id, data: { isActive: false }, overrideAccess: true })
    const attempts = [
      { email: 'nobody@example.com', password: 'whatever-password' },
      { email: ADMIN.email, password: 'wrong-password-123' },
      { email: 'gone@example.com', password: 'gone-password-12' },
    ]
    const bodies: unknown[] = []
    // Each of the three pays for exactly one argon2 verification, the unknown email against a
    // hash of its own, so none answers sooner. Counted, not timed: at the suite's password cost a
    // verification takes about a millisecond, less than the noise a timing would compare.
    const verify = vi.spyOn(argon2, 'verify')
    const verifiedHashes: string[][] = []
    try {
      for (const body of attempts) {
        verify.mockClear()
        const res = await app.request('POST', '/v1/auth/login', { body, headers: freshIp() })
        verifiedHashes.push(verify.mock.calls.map(([hash]) => hash))
        expect(res.status).toBe(401)
        bodies.push({ ...res.body.error })
        expect(res.body.error.code).toBe('auth.invalid_credentials')
      }
    } finally {
      verify.mockRestore()
    }
    expect(bodies[0]).toEqual(bodies[1])
    expect(bodies[1]).toEqual(bodies[2])
    expect(verifiedHashes.map((hashes) => hashes.length)).toEqual([1, 1, 1])
    const stored = await app.payload.find({ collection: 'users', where: { email: { in: [ADMIN.email, 'gone@example.com'] } }, showHiddenFields: true, overrideAccess: true })
    const storedHashes = stored.docs.map((user: any) => user.passwordHash)
    // A hash of its own, at the stored hashes' cost (`argon2id$v=19$m=…,p=…,t=…`).
    const cost = (hash: string) => hash.split('$').slice(1, 4).join('$')
    expect(cost(verifiedHashes[0]![0]!)).toMatch(/^argon2id\$v=\d+\$m=\d+,p=\d+,t=\d+$/)
    expect(storedHashes.map(cost)).toEqual([cost(verifiedHashes[0]![0]!), cost(verifiedHashes[0]![0]!)])
    expect(storedHashes).not.toContain(verifiedHashes[0]![0])
    expect(storedHashes.sort()).toEqual([verifiedHashes[1]![0], verifiedHashes[2]![0]].sort())
  })

  it('guards: 401 auth.missing_token without a token, 401 auth.invalid_token for garbage', async () => {
    const app = await testApp()
    const missing = await app.request('GET', '/v1/auth/me')
    expect(missing.status).toBe(401)
    expect(missing.body.error.code).toBe('auth.missing_token')
    const garbage = await app.request('GET', '/v1/auth/me', { token: 'not.a.jwt' })
    expect(garbage.status).toBe(401)
    expect(garbage.body.error.code).toBe('auth.invalid_token')
  })

  it('refuses forged tokens: alg none, a foreign key, tampered claims, expired', async () => {
    const app = await testApp()
    const { accessToken, user } = (await app.request('POST', '/v1/auth/login', { body: ADMIN, headers: freshIp() })).body.data
    const now = Math.floor(Date.now() / 1000)
    const claims = { sub: user.id, permissions: ['user.manage'], iat: now, exp: now + 600, jti: 'x' }
    const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`
    const foreign = await new SignJWT({ permissions: ['user.manage'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('10m')
      .setJti('y')
      .sign(new TextEncoder().encode('some-other-secret-0123456789abcdef0123'))
    const [h, , s] = accessToken.split('.')
    const tampered = `${h}.${b64({ ...decodeJwt(accessToken).payload, sub: '000000000000000000000000' })}.${s}`
    const expired = await new SignJWT({ permissions: ['user.manage'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt(now - 1000)
      .setExpirationTime(now - 10)
      .setJti('z')
      .sign(ACCESS_SECRET)
    const hs512 = await new SignJWT({ permissions: ['user.manage'] })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('10m')
      .setJti('w')
      .sign(new Uint8Array(64).fill(7))
    for (const token of [algNone, foreign, tampered, expired, hs512]) {
      const res = await app.request('GET', '/v1/users', { token })
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('auth.invalid_token')
    }
    // The genuine token still works.
    expect((await app.request('GET', '/v1/users', { token: accessToken })).status).toBe(200)
  })

  it('never puts passwords, hashes or tokens into logs; responses carry no hash', async () => {
    const app = await testApp()
    const res = await app.request('POST', '/v1/auth/login', { body: ADMIN, headers: freshIp() })
    const { accessToken, refreshToken } = res.body.data
    const list = await app.request('GET', '/v1/users', { token: accessToken })
    expectNoSecrets([list.text, res.text.replace(accessToken, '').replace(refreshToken, '')], [ADMIN.password, alice.password])
    expectNoSecrets(app.rawLogs, [ADMIN.password, alice.password, accessToken, refreshToken])
    expect(app.logs.some((l) => l.msg === 'request.completed' && l.route === 'POST /api/v1/auth/login')).toBe(true)
  })
})
