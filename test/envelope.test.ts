import { describe, expect, it } from 'vitest'

import { testApp } from './support/app'

describe('GET /api/v1/meta', () => {
  it('answers the branding record in the envelope', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/meta')
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body.data.name).toBe('App')
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9A-Z]{26}$/)
  })
})
