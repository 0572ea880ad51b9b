/**
 * A write Payload's adapter makes outside a transaction (`payload.db.updateOne` without a request)
 * waits for another process's write lock on a timer, as Payload's transactions do
 * (src/db/sqlite/writes/queuedClient.ts, src/db/sqlite/writeLock.ts): while a second process holds
 * the lock, this process's event loop keeps turning, and the write lands once the lock is let go.
 * As an autocommit statement on the client's connection it slept in SQLite's busy handler on the
 * serving thread, every timer held until the lock went or the busy timeout (5 s) ran out.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest'

import { writesOf } from '../../src/db/sqlite/writes'
import { create } from '../content/helpers'
import { testApp, type TestApp } from '../support/app'
import { onMongo } from '../support/crossProcess'
import { killLockHolders, lockHolder, timerTurnsWhile } from '../support/lockHolder'

afterEach(killLockHolders)

describe.skipIf(onMongo())("a write outside a transaction, beside another process's write lock", () => {
  let app: TestApp
  beforeAll(async () => {
    app = await testApp()
  }, 120_000)

  it('leaves the event loop turning while the lock is held, and lands once it is let go', async () => {
    const platform = await create(app.payload, 'platforms', { slug: 'lock-wait', label: 'Before', color: '#000000', displayOrder: 9 })
    const holder = lockHolder(writesOf(app.payload).file)
    await holder.held
    let landed = false
    const writing = app.payload.db.updateOne({ collection: 'platforms', id: platform.id, data: { label: 'After' }, returning: false }).then(() => (landed = true))
    // Timers of this process run while the write waits: a native busy wait would hold them all.
    const turns = await timerTurnsWhile(writing)
    expect({ turns, landed }).toEqual({ turns: 5, landed: false })
    holder.release()
    await holder.released
    await writing
    const after = await app.payload.findByID({ collection: 'platforms', id: platform.id, overrideAccess: true })
    expect(after.label).toBe('After')
  })
})
