/**
 * Index upgrades and pre-index cleanup on MongoDB, seen on the wire (the real driver against
 * the scripted wire server): an index whose definition or name changed since an older build
 * is replaced (a new key pattern built beside the old one before the old is dropped), never a
 * refused start; Payload's own indexes are never dropped;
 * duplicate notifications are deleted before their unique index is built.
 */
import { MongoClient, ObjectId, type Document } from 'mongodb'
import { afterEach, describe, expect, it } from 'vitest'

import { ensureIndex, type IndexPlan } from '../../src/db/mongo/indexes'
import { dropDuplicateNotificationsMongo } from '../../src/db/mongo/notificationDuplicates'
import { cursorReply, serverError, startWireServer, type Script, type WireServer } from '../support/mongoWireServer'

let server: WireServer | undefined
let client: MongoClient | undefined

afterEach(async () => {
  await client?.close()
  await server?.close()
  client = undefined
  server = undefined
})

async function dbOver(script: Script) {
  server = await startWireServer(script)
  client = new MongoClient(server.uri('wire'))
  await client.connect()
  return { db: client.db('wire'), server }
}

const cursor = cursorReply

const TEXT: IndexPlan = {
  collection: 'contents',
  index: { key: { title: 'text', description: 'text' }, name: 'raw_content_text', weights: { title: 3, description: 1 } },
}
const LIST: IndexPlan = { collection: 'contents', index: { key: { status: 1, isActive: 1 }, name: 'raw_content_list' } }

/** createIndexes fails with `code` the first time, then succeeds; listIndexes answers `existing`. */
const conflictOnce = (code: number, codeName: string, existing: Document[]): Script => {
  let failed = false
  return (c) => {
    if (c.name === 'createIndexes' && !failed) {
      failed = true
      return serverError(code, codeName)
    }
    if (c.name === 'listIndexes') return cursor('wire.contents', existing)
    return undefined
  }
}

const steps = (s: WireServer) =>
  s.sent.map((c) => (c.name === 'dropIndexes' ? `drop ${String(c.body.index)}` : c.name)).filter((n) => n !== 'endSessions')

describe('an index whose definition changed since an older build', () => {
  it('same name, other options (85): drops it and builds the new definition', async () => {
    const { db, server } = await dbOver(conflictOnce(85, 'IndexOptionsConflict', [
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { status: 1, isActive: 1 }, name: 'raw_content_list', sparse: true },
    ]))
    await ensureIndex(db, LIST)
    expect(steps(server)).toEqual(['createIndexes', 'listIndexes', 'drop raw_content_list', 'createIndexes'])
  })

  it('same name, other keys (86): builds the new definition beside the old one under its own name, and only then drops the old (a list keeps an index to sort by meanwhile)', async () => {
    const { db, server } = await dbOver(conflictOnce(86, 'IndexKeySpecsConflict', [
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { status: 1 }, name: 'raw_content_list' },
      { v: 2, key: { isActive: 1 }, name: 'raw_content_list__0badc0de' },
    ]))
    await ensureIndex(db, LIST)
    const built = server.named('createIndexes').at(-1)!.body.indexes as Document[]
    expect(built).toEqual([{ key: { status: 1, isActive: 1 }, name: expect.stringMatching(/^raw_content_list__[0-9a-f]{8}$/) }])
    // Built first; then both older versions (its own name, and an earlier one built beside) dropped.
    expect(steps(server)).toEqual(['createIndexes', 'listIndexes', 'createIndexes', 'drop raw_content_list', 'drop raw_content_list__0badc0de'])
  })

  it('same keys, other options, under an older explicit name (85): drops the old name and builds ours', async () => {
    const { db, server } = await dbOver(conflictOnce(85, 'IndexOptionsConflict', [
      { v: 2, key: { status: 1, isActive: 1 }, name: 'content_list_v1', sparse: true },
    ]))
    await ensureIndex(db, LIST)
    expect(steps(server)).toEqual(['createIndexes', 'listIndexes', 'drop content_list_v1', 'createIndexes'])
  })

  it('the same definition under an older name (85): kept as it is, logged; nothing dropped or rebuilt (minutes at a million documents)', async () => {
    const { db, server } = await dbOver(conflictOnce(85, 'IndexOptionsConflict', [
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { status: 1, isActive: 1 }, name: 'content_list_v1' },
    ]))
    await ensureIndex(db, LIST)
    expect(steps(server)).toEqual(['createIndexes', 'listIndexes'])
  })

  it('a text index of the same fields, weights and language under another name: kept', async () => {
    const { db, server } = await dbOver(conflictOnce(85, 'IndexOptionsConflict', [
      { v: 2, key: { _fts: 'text', _ftsx: 1 }, name: 'content_text_v1', weights: { description: 1, title: 3 }, default_language: 'english' },
    ]))
    await ensureIndex(db, TEXT)
    expect(steps(server)).toEqual(['createIndexes', 'listIndexes'])
  })

  it("never drops Payload's own index (a default name) with the same keys and other options: the start stops, naming the index", async () => {
    const { db, server } = await dbOver((c) => {
      if (c.name === 'createIndexes') return serverError(85, 'IndexOptionsConflict')
      if (c.name === 'listIndexes') return cursor('wire.contents', [{ v: 2, key: { status: 1, isActive: 1 }, name: 'status_1_isActive_1', unique: true }])
      return undefined
    })
    const err = await ensureIndex(db, LIST).then(() => null, (e: unknown) => e)
    expect((err as Error).name).toBe('IndexBuildFailed')
    expect((err as Error).message).toMatch(/^Could not build the MongoDB index contents\.raw_content_list: /)
    expect(server.named('dropIndexes')).toEqual([])
  })

  it('a second text index (67 on older servers): drops the older text index, whatever its name', async () => {
    const { db, server } = await dbOver(conflictOnce(67, 'CannotCreateIndex', [
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { _fts: 'text', _ftsx: 1 }, name: 'title_text', weights: { title: 1 } },
    ]))
    await ensureIndex(db, TEXT)
    expect(steps(server)).toEqual(['createIndexes', 'listIndexes', 'drop title_text', 'createIndexes'])
  })

  it('67 on an index that is not a text index is not an upgrade: refused, nothing dropped', async () => {
    const { db, server } = await dbOver(conflictOnce(67, 'CannotCreateIndex', []))
    const err = await ensureIndex(db, LIST).then(() => null, (e: unknown) => e)
    expect((err as Error).name).toBe('IndexBuildFailed')
    expect(steps(server)).toEqual(['createIndexes'])
  })
})

describe('duplicate notifications before their unique index', () => {
  const a = new ObjectId('65a1b2c3d4e5f60718293a01')
  const b = new ObjectId('65a1b2c3d4e5f60718293a02')
  const c = new ObjectId('65a1b2c3d4e5f60718293a03')

  it('deletes every copy but the earliest of each (content, kind)', async () => {
    const { db, server } = await dbOver((cmd) => {
      if (cmd.name === 'listIndexes') return cursor('wire.notifications', [{ v: 2, key: { _id: 1 }, name: '_id_' }])
      if (cmd.name === 'aggregate') return cursor('wire.notifications', [{ extra: [b, c] }])
      if (cmd.name === 'delete') return { ok: 1, n: 2 }
      return undefined
    })
    expect(await dropDuplicateNotificationsMongo(db, 'notifications')).toBe(2)
    const pipeline = server.named('aggregate')[0]?.body.pipeline as Document[]
    expect(pipeline[0]).toEqual({ $sort: { _id: 1 } })
    expect(pipeline[1]?.$group._id).toEqual({ content: '$content', kind: '$kind' })
    const deletes = server.named('delete')[0]?.body.deletes as Document[]
    expect(deletes[0]?.q).toEqual({ _id: { $in: [b, c] } })
    expect(JSON.stringify(deletes[0]?.q)).not.toContain(a.toHexString())
  })

  it('does nothing once the unique index exists', async () => {
    const { db, server } = await dbOver((cmd) =>
      cmd.name === 'listIndexes'
        ? cursor('wire.notifications', [{ v: 2, key: { content: 1, kind: 1 }, name: 'content_1_kind_1', unique: true }])
        : undefined,
    )
    expect(await dropDuplicateNotificationsMongo(db, 'notifications')).toBe(0)
    expect(server.sent.map((s) => s.name).filter((n) => n !== 'endSessions')).toEqual(['listIndexes'])
  })
})
