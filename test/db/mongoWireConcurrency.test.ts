/**
 * 16 concurrent writers in one domain on MongoDB, seen on the wire: 8 admin-style Payload saves
 * (through payloadWrite, as the service makes them) and 8 workflow plans, while the scripted
 * server answers the first command of the first 8 transactions with a WriteConflict, as a
 * busy server does to concurrent transactions. Every writer succeeds, each effect is committed
 * exactly once, and no transaction writes a shared document (the contention a counter document
 * inside every transaction used to cause).
 */
import { ObjectId } from 'mongodb'
import type { Payload } from 'payload'
import { afterAll, beforeAll, expect, it } from 'vitest'

import { cursorReply, payloadOnWire, serverError, type Script, type SentCommand, type WireServer } from '../support/mongoWireServer'

let server: WireServer
let payload: Payload
let script: Script = () => undefined

beforeAll(async () => {
  ;({ server, payload } = await payloadOnWire((c, sent) => script(c, sent)))
})

afterAll(async () => {
  await payload?.destroy()
  await server?.close()
})

const A = '65a1b2c3d4e5f60718293a4b'
const B = '65a1b2c3d4e5f60718293a4c'
const txOf = (c: SentCommand) => `${c.session}/${c.txnNumber}`

it('16 concurrent writers in the taxonomy domain, 8 of them conflicting on their first attempt: 0 failures, each committed once', async () => {
  const { engine } = await import('../../src/db/engine')
  const { payloadWrite } = await import('../../src/db/payloadWrite')
  const plans = await import('../../src/db/workflow')
  const opened = new Set<string>()
  let conflicts = 0
  script = (c) => {
    if (c.txnNumber !== undefined && !c.name.endsWith('Transaction') && !opened.has(txOf(c))) {
      opened.add(txOf(c))
      // The first 8 transactions to open (8 different writers, all started at once) conflict.
      if (opened.size <= 8) {
        conflicts += 1
        return serverError(112, 'WriteConflict', ['TransientTransactionError'])
      }
    }
    if (c.name === 'find' && c.body.find === 'groups') return cursorReply('wire.groups', [{ _id: new ObjectId(A) }, { _id: new ObjectId(B) }])
    return undefined
  }
  const at = new Date()
  const event = { actorId: A, action: 'taxonomy.rename' as const, targetSlug: 'b', stateBefore: 'a', stateAfter: 'b', reason: 'group', at }
  const saves = Array.from({ length: 8 }, (_, i) =>
    payloadWrite(() => payload.create({ collection: 'facets', data: { key: `facet-${i}`, label: `Facet ${i}`, color: '#336699' }, overrideAccess: true })),
  )
  const workflow = [
    ...Array.from({ length: 3 }, (_, i) => plans.tagRenamePlan(A, { oldSlug: `old-${i}`, newSlug: `new-${i}`, actorId: A, at })),
    ...Array.from({ length: 3 }, (_, i) => plans.recordedUpdatePlan({ collection: 'groups', id: A, expect: { slug: `g-${i}` }, set: { slug: `h-${i}` }, domain: 'taxonomy', event })),
    plans.reorderPlan({ collection: 'groups', parent: { field: 'surface', id: A }, orderedIds: [B, A], at }),
    plans.reorderPlan({ collection: 'groups', parent: { field: 'surface', id: A }, orderedIds: [A, B], at }),
  ].map((plan) => engine().applyPlan(payload, plan))

  const results = await Promise.allSettled([...saves, ...workflow])
  expect(results.filter((r) => r.status === 'rejected')).toEqual([])
  expect(results).toHaveLength(16)
  expect(conflicts).toBeGreaterThanOrEqual(8)
  for (const r of results.slice(8)) expect((r as PromiseFulfilledResult<{ outcome: string }>).value.outcome).toBe('done')

  // Each writer's effect is in exactly one committed transaction.
  const commits = server.named('commitTransaction')
  expect(commits).toHaveLength(16)
  const committed = new Set(commits.map(txOf))
  const committedWrites = server.sent.filter((c) => c.txnNumber !== undefined && committed.has(txOf(c)) && !c.name.endsWith('Transaction'))
  const facetKeys = committedWrites.filter((c) => c.name === 'insert' && c.body.insert === 'facets').map((c) => String((c.body.documents as { key: string }[])[0]!.key))
  expect(facetKeys.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `facet-${i}`).sort())
  const renames = committedWrites.filter((c) => c.name === 'insert' && c.body.insert === 'tag-renames')
  expect(renames).toHaveLength(3)
  // Nothing but the writers' own documents: no counter or other shared document in any transaction.
  expect(server.sent.some((c) => String(c.body[c.name]).startsWith('raw_versions'))).toBe(false)
})
