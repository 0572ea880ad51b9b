import { expect } from 'vitest'

import type { TestApp } from '../support/app'

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-123' }

let ipCounter = 0
/** A distinct client address per call, so the per-IP rate limits of other tests never interfere. */
export function freshIp(): Record<string, string> {
  ipCounter += 1
  return { 'x-forwarded-for': `10.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}.${(process.pid % 250) + 1}` }
}

export async function login(app: TestApp, email: string, password: string) {
  const res = await app.request('POST', '/v1/auth/login', { body: { email, password }, headers: freshIp() })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { accessToken: string; refreshToken: string; user: any }
}

export const adminSession = (app: TestApp) => login(app, ADMIN.email, ADMIN.password)

/** The `Cookie` value of a console session (Payload's login), as the admin panel holds it. */
export async function consoleCookie(app: TestApp, email: string, password: string): Promise<string> {
  const res = await app.request('POST', '/users/login', { body: { email, password }, headers: freshIp() })
  expect(res.status, res.text).toBe(200)
  return `payload-token=${/payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`
}

let userCounter = 0
/** Creates a user through POST /users as the admin; roles by name or id. */
export async function createUser(app: TestApp, roles?: string[], password = 'a-long-password-1') {
  userCounter += 1
  const admin = await adminSession(app)
  const name = `user${userCounter}x${process.pid}`
  const res = await app.request('POST', '/v1/users', {
    token: admin.accessToken,
    body: { email: `${name}@example.com`, username: name, password, ...(roles ? { roles } : {}) },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { ...(res.body.data as any), password }
}

export async function refresh(app: TestApp, refreshToken: string) {
  return app.request('POST', '/v1/auth/refresh', { body: { refreshToken }, headers: freshIp() })
}

/** Decodes a JWT's parts without verifying. */
export function decodeJwt(token: string): { header: any; payload: any } {
  const [h, p] = token.split('.')
  return {
    header: JSON.parse(Buffer.from(h!, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(p!, 'base64url').toString()),
  }
}

/** Every refresh-token row of a user, straight from the database. */
export async function tokenRows(app: TestApp, userId: string): Promise<any[]> {
  const res = await app.payload.find({
    collection: 'refresh-tokens',
    where: { userId: { equals: userId } },
    pagination: false,
    sort: 'createdAt',
    overrideAccess: true,
  })
  return res.docs
}

export const USER_DTO_KEYS = ['createdAt', 'email', 'id', 'isActive', 'roles', 'updatedAt', 'username']

/** No secret in any response body or log line: the password, hashes and tokens given. */
export function expectNoSecrets(texts: string[], secrets: string[]): void {
  for (const text of texts) {
    expect(text).not.toMatch(/\$argon2/)
    expect(text).not.toMatch(/passwordHash|pbkdf2/)
    for (const secret of secrets) expect(text.includes(secret), `secret leaked in: ${text.slice(0, 200)}`).toBe(false)
  }
}
