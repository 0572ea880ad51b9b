/**
 * argon2's cost: the standard parameters (64 MiB, three passes) everywhere but a test suite, which
 * may lower them only under NODE_ENV=test (PASSWORD_HASH_COST=test); a production or development
 * process given the variable hashes at full cost anyway. A hash carries its parameters: either
 * verifies in any process.
 */
import argon2 from 'argon2'
import { describe, expect, it } from 'vitest'

import { PASSWORD_HASH_OPTIONS, verifyPassword } from '../../src/auth/passwords'
import { parseConfig } from '../../src/platform/config'

const base = {
  PAYLOAD_SECRET: 'test-payload-secret-0123456789abcdef',
  JWT_ACCESS_SECRET: 'test-access-secret-0123456789abcdef0123',
  JWT_REFRESH_SECRET: 'test-refresh-secret-0123456789abcdef012',
}

describe('password hashing cost', () => {
  it('standard is argon2id, 64 MiB, three passes, one lane', async () => {
    const hash = await argon2.hash('a long enough password', PASSWORD_HASH_OPTIONS.standard)
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=1,t=3\$/)
    expect(await verifyPassword(hash, 'a long enough password')).toBe(true)
  })

  it('the test cost is honoured only under NODE_ENV=test', () => {
    expect(parseConfig({ ...base, NODE_ENV: 'test', PASSWORD_HASH_COST: 'test' }).auth.passwordHashCost).toBe('test')
    expect(parseConfig({ ...base, NODE_ENV: 'production', PASSWORD_HASH_COST: 'test', PAYLOAD_SECRET: 'p'.repeat(40), JWT_ACCESS_SECRET: 'a'.repeat(40), JWT_REFRESH_SECRET: 'r'.repeat(40) }).auth.passwordHashCost).toBe('standard')
    expect(parseConfig({ ...base, NODE_ENV: 'development', PASSWORD_HASH_COST: 'test' }).auth.passwordHashCost).toBe('standard')
    expect(parseConfig({ ...base, NODE_ENV: 'test' }).auth.passwordHashCost).toBe('standard')
  })

  it('a hash made at either cost verifies in any process', async () => {
    const light = await argon2.hash('another long password', PASSWORD_HASH_OPTIONS.test)
    expect(light).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/)
    expect(await verifyPassword(light, 'another long password')).toBe(true)
    expect(await verifyPassword(light, 'a wrong password here')).toBe(false)
  })
})
