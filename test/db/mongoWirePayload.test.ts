/**
 * Payload's own saves on MongoDB, seen on the wire: the real Payload (mongoose adapter) and
 * the real driver against the scripted wire server (test/support/mongoWireServer). A save
 * and every write its hooks make are one transaction, committed once or aborted whole.
 */
import type { Payload } from 'payload'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { ObjectId, type Document } from 'mongodb'

import { cursorReply, serverError, startWireServer, type Script, type WireServer } from '../support/mongoWireServer'

let server: WireServer
let payload: Payload
let script: Script = () => undefined

beforeAll(async () => {
  server = await startWireServer((c, sent) => script(c, sent))
  process.env.DATABASE_URI = server.uri('wire')
  const { getPayload } = await import('payload')
  const config = await (await import('../../payload.config')).default
  // Its start-up hook is not run: the tests call what they check.
  payload = await getPayload({ config, disableOnInit: true })
})

afterAll(async () => {
  await payload?.destroy()
  await server?.close()
})

beforeEach(() => {
  script = () => undefined
  server.sent.length = 0
})

const saveFacet = () => payload.create({ collection: 'facets', data: { key: 'topic', label: 'Topic', color: '#336699' }, overrideAccess: true })

const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'commitTransaction', 'abortTransaction'])
const writes = () => server.sent.filter((c) => WRITES.has(c.name))
const target = (c: { name: string; body: Record<string, unknown> }) =>
  c.name.endsWith('Transaction') ? c.name : `${c.name} ${String(c.body[c.name])}`

describe("Payload's own save on MongoDB", () => {
  it('writes the document and its change counter in one transaction, committed once', async () => {
    await saveFacet()
    expect(writes().map(target)).toEqual(['insert facets', 'update raw_versions', 'commitTransaction'])
    expect(new Set(writes().map((c) => `${c.session}/${c.txnNumber}`)).size).toBe(1)
    expect(writes()[0]?.startTransaction).toBe(true)
  })

  it('a hook write that fails aborts the whole save: no commit, the caller gets the error', async () => {
    script = (c) => (c.name === 'update' && c.body.update === 'raw_versions' ? serverError(2, 'BadValue') : undefined)
    const err = await saveFacet().then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
    expect(writes().map(target)).toEqual(['insert facets', 'update raw_versions', 'abortTransaction'])
  })

  it('start-up deletes duplicate notifications before Payload builds their unique index', async () => {
    const extra = new ObjectId('65a1b2c3d4e5f60718293a02')
    script = (c) => {
      if (c.name === 'aggregate' && c.body.aggregate === 'notifications') return cursorReply('wire.notifications', [{ extra: [extra] }])
      return undefined
    }
    const { engine } = await import('../../src/db/engine')
    await engine().prepare(payload)
    const on = (name: string) => server.sent.findIndex((c) => c.name === name && c.body[name] === 'notifications')
    expect(on('delete')).toBeGreaterThan(-1)
    expect(on('delete')).toBeLessThan(on('createIndexes'))
    expect((server.sent[on('delete')]?.body.deletes as Document[])[0]?.q).toEqual({ _id: { $in: [extra] } })
  })

  it('a URL-key backfill at start moves the content counter (other processes drop their cached pages)', async () => {
    let pending = [{ _id: new ObjectId('65a1b2c3d4e5f60718293a09'), url: 'https://example.com/a' }]
    script = (c) => {
      if (c.name === 'find' && c.body.find === 'contents') {
        const batch = pending
        pending = []
        return cursorReply('wire.contents', batch)
      }
      return undefined
    }
    const { engine } = await import('../../src/db/engine')
    await engine().contentStore(payload).prepare()
    const counterMoves = server.sent.filter((c) => c.name === 'update' && c.body.update === 'raw_versions')
    const last = (counterMoves.at(-1)?.body.updates as Document[])[0]
    expect(last).toMatchObject({ q: { _id: 'content' }, u: { $inc: { n: 1 } } })
    // Without a backfill the counters are only seeded, never moved.
    server.sent.length = 0
    await engine().contentStore(payload).prepare()
    const moves = server.sent.filter((c) => c.name === 'update' && c.body.update === 'raw_versions')
    expect(moves.flatMap((c) => c.body.updates as Document[]).some((u) => '$inc' in u.u)).toBe(false)
  })

  it('the start-up check passes on a URI that names the replica set', async () => {
    const { engine } = await import('../../src/db/engine')
    await expect(engine().prepare(payload)).resolves.toBeUndefined()
  })
})
