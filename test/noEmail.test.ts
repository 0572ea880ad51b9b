import { beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from './support/app'

let app: TestApp
beforeAll(async () => {
  app = await testApp()
})

describe('email: the service sends none', () => {
  it("Payload's email slot holds the adapter that sends nothing, chosen deliberately (no start-up warning)", () => {
    expect(app.payload.email.name).toBe('none')
    expect(app.logs.filter((l) => String(l.msg).startsWith('No email adapter'))).toEqual([])
  })

  it('should anything try, one warning names the subject, never the recipient or the body (a link may carry a token)', async () => {
    const before = app.logs.length
    await app.payload.sendEmail({ to: 'someone@example.com', subject: 'Reset your password', html: '<a href="/reset?token=secret-token-123">reset</a>' })
    const lines = app.logs.slice(before)
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', msg: 'email.not_sent', subject: 'Reset your password', reason: 'this service sends no email' })])
    const raw = JSON.stringify(lines)
    expect(raw).not.toContain('someone@example.com')
    expect(raw).not.toContain('secret-token-123')
  })
})
