/**
 * The console's sign-in limits (issue 53.9): counted per account from one address and per
 * address, so a team behind one office address does not share one budget, while one address
 * guessing many accounts is still stopped. Small limits for this file: 2 per account and
 * address, 5 per address.
 */
import { describe, expect, it } from 'vitest'

process.env.RATE_LIMIT_CONSOLE_LOGIN = '2/60'
process.env.RATE_LIMIT_CONSOLE_LOGIN_ADDRESS = '5/60'

import { testApp } from '../support/app'
import { ADMIN } from './helpers'
import { staffWith } from '../content/helpers'

const office = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` })

describe('console sign-in limits (2 per account and address, 5 per address)', () => {
  it('gives each account behind one address its own budget, and stops the address past its own', async () => {
    const app = await testApp()
    const signIn = (email: string, password: string, at: number) => app.request('POST', '/users/login', { body: { email, password }, headers: office(at) })
    const moderator = await staffWith(app.payload, ['content.moderate'])
    const modEmail = (await app.payload.findByID({ collection: 'users', id: moderator.id, overrideAccess: true })).email

    // The admin mistypes twice; the third try from that address is refused for that account only.
    expect((await signIn(ADMIN.email, 'wrong-password-000', 1)).status).toBe(401)
    expect((await signIn(ADMIN.email, 'wrong-password-000', 1)).status).toBe(401)
    const third = await signIn(ADMIN.email, ADMIN.password, 1)
    expect(third.status).toBe(429)
    expect(third.body.error.code).toBe('ratelimit.exceeded')
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // Payload's login form shows `errors[0].message`.
    expect(third.body.errors[0].message).toMatch(/try again later/i)
    // Case does not make a fresh account.
    expect((await signIn(ADMIN.email.toUpperCase(), ADMIN.password, 1)).status).toBe(429)

    // A colleague behind the same address signs in: 200.
    expect((await signIn(modEmail, 'a-long-password-1', 1)).status).toBe(200)
    // The admin from another address: 200.
    expect((await signIn(ADMIN.email, ADMIN.password, 2)).status).toBe(200)

    // Five attempts from address 1 so far; the sixth, for any account, is refused.
    const sixth = await signIn('someone-else@example.com', 'whatever-password', 1)
    expect(sixth.status).toBe(429)
    const warned = app.logs.filter((l) => l.msg === 'ratelimit.exceeded').map((l) => l.limit)
    expect(warned).toEqual(['consoleLogin', 'consoleLogin', 'consoleLoginAddress'])
  })
})
