/**
 * The console's session cookie is `Secure` whenever the console is reached over HTTPS (issue
 * 52.7): an https APP_PUBLIC_URL, or BEHIND_TLS=true where a TLS proxy sits in front and the
 * public URL is not set. It was `HttpOnly; SameSite=Lax` only, so a browser would send it over a
 * cleartext connection to the same host. Over plain http (development) it stays usable.
 */
import { describe, expect, it } from 'vitest'

process.env.APP_PUBLIC_URL = 'https://console.example.com'

import { parseConfig, resetConfig } from '../../src/platform/config'
import { ADMIN, freshIp } from '../auth/helpers'
import { testApp } from '../support/app'

describe('the console session cookie over HTTPS', () => {
  it('an https public URL: Secure, HttpOnly, SameSite=Lax, on sign-in and on sign-out', async () => {
    resetConfig()
    const app = await testApp()
    const login = await app.request('POST', '/users/login', { body: ADMIN, headers: freshIp() })
    expect(login.status, login.text).toBe(200)
    const set = login.headers.get('set-cookie') ?? ''
    expect(set).toMatch(/^payload-token=/)
    expect(set).toMatch(/;\s*Secure/i)
    expect(set).toMatch(/;\s*HttpOnly/i)
    expect(set).toMatch(/;\s*SameSite=Lax/i)
    const cookie = `payload-token=${/payload-token=([^;]+)/.exec(set)![1]}`
    const logout = await app.request('POST', '/users/logout', { headers: { cookie, origin: 'https://console.example.com' } })
    expect(logout.status, logout.text).toBe(200)
    expect(logout.headers.get('set-cookie') ?? '').toMatch(/;\s*Secure/i)
  })

  it('the setting: https public URL or BEHIND_TLS; plain http without either', () => {
    const base = { ...process.env }
    expect(parseConfig({ ...base, APP_PUBLIC_URL: 'https://a.example' }).secureCookies).toBe(true)
    expect(parseConfig({ ...base, APP_PUBLIC_URL: '', BEHIND_TLS: 'true' }).secureCookies).toBe(true)
    expect(parseConfig({ ...base, APP_PUBLIC_URL: 'http://localhost:3000' }).secureCookies).toBe(false)
    expect(parseConfig({ ...base, APP_PUBLIC_URL: '' }).secureCookies).toBe(false)
  })
})
