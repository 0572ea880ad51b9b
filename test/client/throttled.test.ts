/** A throttled refresh (429) keeps the tokens: the server said "later", not "never". */
import { afterAll, beforeAll, expect, it } from 'vitest'

// Two seconds, not one: a token's times are whole seconds, so a one-second token issued late in
// a second can expire before the retry that follows its refresh (a flaky 401 on a loaded machine).
process.env.JWT_ACCESS_TTL_SECONDS = '2'
process.env.RATE_LIMIT_REFRESH = '1/3600'

import { ADMIN } from '../auth/helpers'
import { testApp } from '../support/app'
import { startHttpServer, type RunningServer } from '../support/httpServer'
import { passTime } from '../support/clock'
import { clientFor, completedLines } from './support'

let server: RunningServer
beforeAll(async () => {
  await testApp()
  server = await startHttpServer()
})
afterAll(() => server.close())

it('429 from /auth/refresh keeps the tokens, does not end the session, and reports Retry-After', async () => {
  const { client, store, ended } = clientFor(server)
  await client.login(ADMIN.email, ADMIN.password)
  passTime(2300)
  await client.get('/auth/me') // the one refresh the limit allows
  const session = await store.get()
  passTime(2300)
  const err = await client.get('/auth/me').catch((e: unknown) => e)
  expect(err).toMatchObject({ status: 429, code: 'ratelimit.exceeded', retryAfterSeconds: expect.any(Number) })
  expect(await store.get()).toEqual(session)
  expect(ended).toEqual([])
  expect((await completedLines('POST /api/v1/auth/refresh')).map((l) => l.statusCode)).toEqual([200, 429])
})
