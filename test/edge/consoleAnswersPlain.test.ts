/**
 * Answers that leave through Payload's REST handler or a Next route (the console's endpoints,
 * and /api/v1 under `next dev`/`next start`) pass through code that keeps the body but not
 * every header: Payload's handler drops Content-Encoding, so a compressed body would reach the
 * browser as bytes it cannot read (the console's item history showed "No moderation yet").
 * Those answers are plain whatever the client accepts; only the Node server compresses.
 */
import { expect, it } from 'vitest'

import { freshIp } from '../auth/helpers'
import { content } from '../content/helpers'
import { testApp } from '../support/app'

it("a console answer over 1 KB, asked for with Accept-Encoding: br, gzip, is plain JSON through Payload's REST", async () => {
  const app = await testApp()
  const login = await app.request('POST', '/users/login', { body: { email: 'admin@example.com', password: 'admin-password-123' }, headers: freshIp() })
  const cookie = `payload-token=${/payload-token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]}`
  const item = await content(app.payload, { title: 'History with many events' })
  for (let i = 0; i < 4; i++) {
    expect((await app.request('POST', `/content/moderation/${item.id}/delete`, { headers: { cookie }, body: {} })).status).toBe(200)
    expect((await app.request('POST', `/content/moderation/${item.id}/restore`, { headers: { cookie }, body: {} })).status).toBe(200)
  }
  const res = await app.request('GET', `/moderation-events/history/${item.id}`, { headers: { cookie, 'accept-encoding': 'br, gzip' } })
  expect(res.status).toBe(200)
  expect(res.text.length).toBeGreaterThan(1024)
  expect(res.headers.get('content-encoding')).toBeNull()
  expect(res.body.data).toHaveLength(8)
})
