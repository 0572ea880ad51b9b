/**
 * Payload turns its transactions off, silently, when DATABASE_URI has no `replicaSet=`
 * parameter, even on a replica set member. The service must refuse to start there rather
 * than save non-atomically. The real Payload and driver against the scripted wire server.
 */
import type { Payload } from 'payload'
import { afterAll, beforeAll, expect, it } from 'vitest'

import { startWireServer, type WireServer } from '../support/mongoWireServer'

let server: WireServer
let payload: Payload

beforeAll(async () => {
  server = await startWireServer()
  process.env.DATABASE_URI = server.uri('wire').replace(/replicaSet=[^&]+&?/, '')
  const { getPayload } = await import('payload')
  const config = await (await import('../../payload.config')).default
  payload = await getPayload({ config, disableOnInit: true })
  server.sent.length = 0
})

afterAll(async () => {
  await payload?.destroy()
  await server?.close()
})

it('refuses a DATABASE_URI without replicaSet=, where Payload would save without transactions', async () => {
  // The hazard, seen on the wire: the server is a replica set member, yet no transaction.
  await payload.create({ collection: 'facets', data: { key: 'topic', label: 'Topic', color: '#336699' }, overrideAccess: true })
  expect(server.sent.some((c) => c.name === 'insert')).toBe(true)
  expect(server.sent.some((c) => c.startTransaction || c.name === 'commitTransaction')).toBe(false)

  const { engine } = await import('../../src/db/engine')
  const err = await engine().prepare(payload).then(() => null, (e: unknown) => e)
  expect((err as Error)?.name).toBe('ReplicaSetRequired')
  expect((err as Error).message).toMatch(/DATABASE_URI has no replicaSet=<name> parameter/)
})

it("refuses a mongos (a sharded cluster) by name, and a standalone server; accepts a replica set member", async () => {
  const { replicaSetOf } = await import('../../src/db/mongo/transaction')
  const refused = (hello: Record<string, unknown>) => {
    try {
      replicaSetOf(hello)
      return null
    } catch (err) {
      return err as Error
    }
  }
  // What a mongos answers to hello: no setName, msg 'isdbgrid'.
  const mongos = refused({ ok: 1, isWritablePrimary: true, msg: 'isdbgrid', maxWireVersion: 21 })
  expect(mongos?.name).toBe('ReplicaSetRequired')
  expect(mongos?.message).toMatch(/mongos; sharded clusters are not supported/)
  expect(refused({ ok: 1, isWritablePrimary: true })?.message).toMatch(/reports no replica set name/)
  expect(replicaSetOf({ ok: 1, setName: 'rs0', isWritablePrimary: true })).toBe('rs0')
})
