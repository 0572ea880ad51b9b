/**
 * One refresh token presented twice at once (no reuse grace, the specification's rule): one
 * presenter wins the rotation and the other is reuse, which revokes every refresh token of the
 * user, the successor the winner just received included. Once, the winner's successor could
 * escape (stored after the loser's revocation): racing defeated "reuse revokes the family".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { testApp, type TestApp } from '../support/app'
import { otherProcessRefresher } from '../support/otherProcess'
import { createUser, login, refresh, tokenRows } from './helpers'

let app: TestApp

beforeAll(async () => {
  app = await testApp()
})

describe('concurrent refresh with one token (grace off)', () => {
  it('10 trials: one 200 and one 401 each time, and afterwards no refresh token of the user is live', async () => {
    for (let i = 0; i < 10; i++) {
      const user = await createUser(app)
      const session = await login(app, user.email, user.password)
      const [a, b] = await Promise.all([refresh(app, session.refreshToken), refresh(app, session.refreshToken)])
      expect([a.status, b.status].sort(), `trial ${i}`).toEqual([200, 401])
      const winner = (a.status === 200 ? a : b).body.data.refreshToken as string
      // The winner's successor was revoked with the rest: it refreshes nothing.
      expect((await refresh(app, winner)).status, `trial ${i}: the successor survived`).toBe(401)
      const live = (await tokenRows(app, String(user.id))).filter((r) => !r.revokedAt)
      expect(live, `trial ${i}`).toEqual([])
      expect(app.logs.some((l) => l.msg === 'auth.refresh.reused' && l.userId === String(user.id))).toBe(true)
    }
  })
})

describe('concurrent refresh with one token across two processes (grace off)', () => {
  let other: Awaited<ReturnType<typeof otherProcessRefresher>> | undefined
  afterAll(() => other?.stop())

  it('5 trials: one process wins, the other is reuse, and nothing of the user stays live', async () => {
    other = await otherProcessRefresher()
    for (let i = 0; i < 5; i++) {
      const user = await createUser(app)
      const session = await login(app, user.email, user.password)
      const [here, there] = await Promise.all([refresh(app, session.refreshToken), other.refresh(session.refreshToken)])
      const statuses = [here.status, Number(there.split(' ')[0])].sort()
      expect(statuses, `trial ${i}`).toEqual([200, 401])
      const winner = here.status === 200 ? (here.body.data.refreshToken as string) : there.split(' ')[1]!
      expect((await refresh(app, winner)).status, `trial ${i}: the successor survived`).toBe(401)
      expect((await tokenRows(app, String(user.id))).filter((r) => !r.revokedAt), `trial ${i}`).toEqual([])
    }
  }, 120_000)
})
