// This file's environment: branding variables, read when the app first loads.
process.env.APP_NAME = 'Test Curation'
process.env.APP_SLUG = 'test-curation'
process.env.APP_TAGLINE = 'Curated for tests'
process.env.APP_LOGO_URL = 'https://cdn.example.com/logo.svg'
process.env.APP_ICON_URL = '/static/icon.png'
process.env.APP_PRIMARY_COLOR = '#112233'
process.env.APP_PUBLIC_URL = 'https://app.example.com'
process.env.APP_VERSION = '9.9.9-test'
process.env.AUTH_ALLOW_SELF_REGISTRATION = 'true'

import { describe, expect, it } from 'vitest'

import { testApp } from './support/app'

describe('GET /api/v1/meta', () => {
  it('falls back to the environment for every field', async () => {
    const app = await testApp()
    const res = await app.request('GET', '/v1/meta')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      name: 'Test Curation',
      slug: 'test-curation',
      tagline: 'Curated for tests',
      description: '',
      logoUrl: 'https://cdn.example.com/logo.svg',
      iconUrl: 'https://app.example.com/static/icon.png',
      primaryColor: '#112233',
      publicUrl: 'https://app.example.com',
      version: '9.9.9-test',
      features: { selfRegistration: true, submissionsOpen: true },
    })
  })

  it('sends the caching headers and answers 304 to a matching If-None-Match', async () => {
    const app = await testApp()
    const first = await app.request('GET', '/v1/meta')
    expect(first.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/)
    const second = await app.request('GET', '/v1/meta', { headers: { 'If-None-Match': etag } })
    expect(second.status).toBe(304)
    expect(second.text).toBe('')
    expect(second.headers.get('etag')).toBe(etag)
    expect(second.headers.get('x-request-id')).toMatch(/^req_/)
    const stale = await app.request('GET', '/v1/meta', { headers: { 'If-None-Match': 'W/"something-else"' } })
    expect(stale.status).toBe(200)
  })

  it('returns the edited global where set, and a new ETag', async () => {
    const app = await testApp()
    const before = await app.request('GET', '/v1/meta')
    await app.payload.updateGlobal({
      slug: 'branding',
      data: { name: 'Edited Name', primaryColor: '#abcdef', logoUrl: '/uploads/brand.png', submissionsOpen: false },
      overrideAccess: true,
    })
    const after = await app.request('GET', '/v1/meta', { headers: { 'If-None-Match': before.headers.get('etag')! } })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(after.body.data).toMatchObject({
      name: 'Edited Name',
      primaryColor: '#abcdef',
      tagline: 'Curated for tests',
      logoUrl: 'https://app.example.com/uploads/brand.png',
      features: { selfRegistration: true, submissionsOpen: false },
    })
    // Clearing the edit falls back to the environment again.
    await app.payload.updateGlobal({ slug: 'branding', data: { name: '', logoUrl: '' }, overrideAccess: true })
    const cleared = await app.request('GET', '/v1/meta')
    expect(cleared.body.data.name).toBe('Test Curation')
    expect(cleared.body.data.logoUrl).toBe('https://cdn.example.com/logo.svg')
  })

  it('never carries per-user data: the answer is the same with a token', async () => {
    const app = await testApp()
    const anon = await app.request('GET', '/v1/meta')
    const withAuth = await app.request('GET', '/v1/meta', { headers: { Authorization: 'Bearer whatever' } })
    expect(withAuth.body.data).toEqual(anon.body.data)
  })
})
