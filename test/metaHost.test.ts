/**
 * GET /meta's absolute links and shared caches. With no public URL (no APP_PUBLIC_URL, none
 * edited), a relative logo resolves against the host the client addressed, so the answer
 * differs per host: it says `Vary: Host` (and the proxy's scheme header), or a shared cache
 * (`public, max-age=300`) would hand one host's links to another (the review poisoned it with
 * a forged Host). With a public URL, links come from it, whatever the Host, and no Vary on it.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { testApp } from './support/app'
import { startHttpServer, type RunningServer } from './support/httpServer'

let server: RunningServer
beforeAll(async () => {
  server = await startHttpServer()
}, 120_000)
afterAll(() => server?.close())

/** GET /api/v1/meta over HTTP with this Host header (fetch would not send a forged one). */
function meta(host: string): Promise<{ body: any; headers: Record<string, string | string[] | undefined> }> {
  const { port } = new URL(server.origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/meta', headers: { host } }, (res) => {
      let text = ''
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve({ body: JSON.parse(text), headers: res.headers }))
    })
    req.on('error', reject)
    req.end()
  })
}

const varyOf = (headers: Record<string, unknown>) => String(headers.vary).split(/,\s*/)

delete process.env.APP_PUBLIC_URL

describe('GET /api/v1/meta and the Host header', () => {
  it('without a public URL: links from the addressed host, and Vary names Host', async () => {
    const app = await testApp()
    await app.payload.updateGlobal({ slug: 'branding', data: { logoUrl: '/brand/logo.png', publicUrl: '' }, overrideAccess: true })
    const forged = await meta('evil.example')
    expect(forged.body.data.logoUrl).toBe('http://evil.example/brand/logo.png')
    expect(forged.headers['cache-control']).toBe('public, max-age=300, must-revalidate')
    expect(varyOf(forged.headers)).toEqual(expect.arrayContaining(['Host', 'X-Forwarded-Proto']))
    const own = await meta('app.example')
    expect(own.body.data.logoUrl).toBe('http://app.example/brand/logo.png')
  })

  it('with a public URL: the same links whatever the Host, no Vary on it', async () => {
    const app = await testApp()
    await app.payload.updateGlobal({ slug: 'branding', data: { logoUrl: '/brand/logo.png', publicUrl: 'https://curation.example' }, overrideAccess: true })
    for (const host of ['evil.example', 'app.example']) {
      const answer = await meta(host)
      expect(answer.body.data.logoUrl).toBe('https://curation.example/brand/logo.png')
      expect(varyOf(answer.headers)).not.toContain('Host')
    }
  })
})
