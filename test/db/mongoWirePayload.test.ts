/**
 * Payload's own saves on MongoDB, seen on the wire: the real Payload (mongoose adapter) and
 * the real driver against the scripted wire server (test/support/mongoWireServer). A save
 * and every write its hooks make are one transaction, committed once or aborted whole.
 */
import type { Payload } from 'payload'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { serverError, startWireServer, type Script, type WireServer } from '../support/mongoWireServer'

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

  it('the start-up check passes on a URI that names the replica set', async () => {
    const { engine } = await import('../../src/db/engine')
    await expect(engine().prepare(payload)).resolves.toBeUndefined()
  })
})
