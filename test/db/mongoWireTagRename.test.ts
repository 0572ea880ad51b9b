/**
 * A tag rename on MongoDB at any number of holders (src/db/mongo/tagRename.ts), seen on the wire:
 * recorded first in one short transaction, holders moved in batches of plain writes (never one
 * transaction over every holder), the switch with its record and audit event in one transaction,
 * the old slug dropped in batches, the run ended; a run left half-way is carried on at start;
 * a second rename of the same tag while one runs is refused. The real Payload and driver against
 * the scripted wire server.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { ObjectId, type Document } from 'mongodb'

import { cursorReply, type Script, type SentCommand, serverError, wireFile } from '../support/mongoWireServer'

const wire = wireFile()

let rename: typeof import('../../src/db/mongo/tagRename')

const TAG = new ObjectId('65a1b2c3d4e5f60718293a51')
const ITEMS = [new ObjectId('65a1b2c3d4e5f60718293a61'), new ObjectId('65a1b2c3d4e5f60718293a62')]
const at = new Date('2024-05-01T10:00:00.000Z')
const input = { oldSlug: 'ml', newSlug: 'machine-learning', actorId: '65a1b2c3d4e5f60718293a71', at }

beforeAll(async () => {
  rename = await import('../../src/db/mongo/tagRename')
})

const filterOf = (c: SentCommand) => (c.body.filter ?? {}) as Document
/** A run's claim as the server answers it: `run` taken (its lease had expired), or null (every run held). */
const claimReply = (run: Document | null) => (run ? { ok: 1, value: run, lastErrorObject: { n: 1, updatedExisting: true } } : { ok: 1, value: null, lastErrorObject: { n: 0, updatedExisting: false } })

/** The scripted database: the tag (with `slug`), holders found once per phase, and `runs` claimable once each. */
function database(tagSlug: () => string, runs: Document[] = []): Script {
  const claimable = [...runs]
  const served = new Set<string>()
  const once = (key: string, docs: Document[]) => {
    if (served.has(key)) return cursorReply('wire.contents', [])
    served.add(key)
    return cursorReply('wire.contents', docs)
  }
  return (c) => {
    if (c.name === 'find' && c.body.find === 'tags') return cursorReply('wire.tags', [{ _id: TAG, slug: tagSlug() }])
    if (c.name === 'find' && c.body.find === 'raw_tag_rename_runs') return cursorReply('wire.raw_tag_rename_runs', runs)
    if (c.name === 'findAndModify' && c.body.findAndModify === 'raw_tag_rename_runs') return claimReply(claimable.shift() ?? null)
    if (c.name === 'find' && c.body.find === 'contents') {
      const tagSlugs = filterOf(c).tagSlugs as Document
      return once(JSON.stringify(tagSlugs), ITEMS.map((_id) => ({ _id })))
    }
    if (c.name === 'aggregate' && c.body.aggregate === 'contents') return cursorReply('wire.contents', [{ _id: 1, n: ITEMS.length }])
    return undefined
  }
}

const label = (c: SentCommand) => `${c.name} ${String(c.body[c.name])}`
const WRITES = new Set(['insert', 'update', 'delete', 'commitTransaction'])
const writes = () => wire.server.sent.filter((c) => WRITES.has(c.name))

describe('a tag rename on MongoDB, in recorded steps', () => {
  it('records the run, moves holders in batches of plain writes, switches in one transaction, drops the old slug, ends the run', async () => {
    let slug = 'ml'
    wire.script = database(() => slug)
    // The switch's update of the tag is where its slug changes.
    const base = wire.script
    wire.script = (c, sent) => {
      if (c.name === 'update' && c.body.update === 'tags') slug = 'machine-learning'
      return base(c, sent)
    }
    const result = await rename.renameTagMongo(wire.payload, TAG.toHexString(), input)
    expect(result).toEqual({ outcome: 'renamed', contentCount: 2 })
    expect(writes().map((c) => (c.name === 'commitTransaction' ? c.name : label(c)))).toEqual([
      // 1. recorded: the new slug claimed, the run written and leased to this carrier, one transaction
      'insert slug-claims',
      'insert raw_tag_rename_runs',
      'update raw_tag_rename_runs',
      'commitTransaction',
      // 2. the new slug beside the old one, a batch of plain writes
      'update contents',
      // 3. the switch: the tag, the rename record, the audit event, one transaction
      'update tags',
      'insert tag-renames',
      'insert moderation-events',
      'commitTransaction',
      // 4. the old slug dropped in a batch; stragglers (held the old slug only) renamed in place
      'update contents',
      'update contents',
      // 5. the old slug's claim released, the run ended
      'delete slug-claims',
      'delete raw_tag_rename_runs',
    ])
    const [add, drop] = writes().filter((c) => c.name === 'update' && c.body.update === 'contents')
    // Holder writes are never part of a transaction.
    for (const w of [add!, drop!]) {
      expect(w.startTransaction).toBeUndefined()
      expect(w.body.autocommit).toBeUndefined()
    }
    const addUpdate = (add!.body.updates as Document[])[0]!
    expect(addUpdate.q).toEqual({ _id: { $in: ITEMS }, tagSlugs: { $eq: 'ml', $ne: 'machine-learning' } })
    expect(JSON.stringify(addUpdate.u)).toContain('"$concatArrays"')
    const dropUpdate = (drop!.body.updates as Document[])[0]!
    expect(dropUpdate.q).toEqual({ _id: { $in: ITEMS }, tagSlugs: { $all: ['ml', 'machine-learning'] } })
    expect(dropUpdate.u).toMatchObject({ $pull: { tagSlugs: 'ml' } })
    const record = writes().find((c) => c.name === 'insert' && c.body.insert === 'tag-renames')!
    expect((record.body.documents as Document[])[0]).toMatchObject({ oldSlug: 'ml', newSlug: 'machine-learning', contentCount: 2 })
    const claimReleased = writes().find((c) => c.name === 'delete' && c.body.delete === 'slug-claims')!
    expect((claimReleased.body.deletes as Document[])[0]!.q).toEqual({ slug: 'ml', entity: 'tag', owner: TAG.toHexString() })
    // The lease is set on the server's clock in the begin transaction; the run ends only for its holder.
    const [inserted, leased] = writes().filter((c) => c.body[c.name] === 'raw_tag_rename_runs')
    const holder = (inserted!.body.documents as Document[])[0]!.holder as string
    expect(holder).toMatch(/:\d+:[0-9a-f]{8}$/)
    expect(leased!.session).toBe(inserted!.session)
    expect(JSON.stringify((leased!.body.updates as Document[])[0]!.u)).toContain('$$NOW')
    const ended = writes().find((c) => c.name === 'delete' && c.body.delete === 'raw_tag_rename_runs')!
    expect((ended.body.deletes as Document[])[0]!.q).toEqual({ _id: TAG, holder })
  })

  it('a run left after its switch is carried on at start: only the old slug dropped and the run ended', async () => {
    const run = { _id: TAG, oldSlug: 'ml', newSlug: 'machine-learning', actor: null, at }
    wire.script = database(() => 'machine-learning', [run])
    expect(await rename.resumeTagRenamesMongo(wire.payload)).toBe(1)
    expect(writes().map(label)).toEqual(['update contents', 'update contents', 'delete slug-claims', 'delete raw_tag_rename_runs'])
    // Claimed only if its lease expired (or it has none: a run recorded before leases).
    const claim = wire.server.sent.find((c) => c.name === 'findAndModify')!
    expect(claim.body.query).toEqual({ $or: [{ leaseUntil: { $exists: false } }, { $expr: { $lt: ['$leaseUntil', '$$NOW'] } }] })
  })

  it('a start leaves a run another process holds alone: nothing written', async () => {
    wire.script = database(() => 'ml', [])
    expect(await rename.resumeTagRenamesMongo(wire.payload)).toBe(0)
    expect(writes()).toEqual([])
  })

  it('two carriers of one run (the request, and a start that claimed it): the later switch finds the tag renamed and carries on, never undoing it', async () => {
    let slug = 'ml'
    let releaseA!: () => void
    const bRead = new Promise<void>((resolve) => (releaseA = resolve))
    let tagReads = 0
    const run = { _id: TAG, oldSlug: 'ml', newSlug: 'machine-learning', actor: null, at, holder: 'elsewhere:1:00000000', leaseUntil: new Date(0) }
    const base = database(() => slug, [run])
    wire.script = async (c, sent) => {
      if (c.name === 'find' && c.body.find === 'tags' && c.body.autocommit === undefined) {
        tagReads += 1
        // The second carrier (B) has read the old slug: A's switch may now commit.
        if (tagReads === 2) releaseA()
      }
      if (c.name === 'update' && c.body.update === 'tags') {
        if (slug === 'ml' && tagReads < 2) {
          // A's switch, held until B has read the tag under its old slug.
          await bRead
          slug = 'machine-learning'
          return undefined
        }
        if (slug === 'ml') {
          slug = 'machine-learning'
          return undefined
        }
        // B's switch: its guard (the old slug) matches nothing.
        return { ok: 1, n: 0, nModified: 0 }
      }
      return base(c, sent)
    }
    const a = rename.renameTagMongo(wire.payload, TAG.toHexString(), input)
    await expect.poll(() => wire.server.sent.some((c) => c.name === 'update' && c.body.update === 'tags')).toBe(true)
    const b = rename.resumeTagRenamesMongo(wire.payload)
    const [resultA, resumed] = await Promise.all([a, b])
    expect(resultA).toMatchObject({ outcome: 'renamed' })
    expect(resumed).toBe(1)
    const sent = wire.server.sent
    // Nothing pulls the new slug from a holder, nor releases the claim on it.
    const pulls = sent.filter((c) => c.name === 'update' && c.body.update === 'contents').flatMap((c) => (c.body.updates as Document[]).map((u) => JSON.stringify(u.u)))
    expect(pulls.some((u) => u.includes('"$pull":{"tagSlugs":"machine-learning"}'))).toBe(false)
    const claimDeletes = sent.filter((c) => c.name === 'delete' && c.body.delete === 'slug-claims').flatMap((c) => (c.body.deletes as Document[]).map((d) => d.q.slug))
    expect(claimDeletes).not.toContain('machine-learning')
    // Each carrier ends only its own holding of the run.
    const runDeletes = sent.filter((c) => c.name === 'delete' && c.body.delete === 'raw_tag_rename_runs').map((c) => (c.body.deletes as Document[])[0]!.q)
    for (const q of runDeletes) expect(q.holder).toEqual(expect.any(String))
  })

  it('a carrier whose lease was taken stops at its next step: 503, and nothing of the run ended by it', async () => {
    const base = database(() => 'ml')
    wire.script = async (c, sent) => {
      // Another process took the run: the heartbeat matches no run held by this carrier.
      if (c.name === 'update' && c.body.update === 'raw_tag_rename_runs' && c.body.autocommit === undefined) return { ok: 1, n: 0, nModified: 0 }
      // The first batch is slow: heartbeats run meanwhile.
      if (c.name === 'update' && c.body.update === 'contents') await new Promise((r) => setTimeout(r, 150))
      return base(c, sent)
    }
    const err = await rename.renameTagMongo(wire.payload, TAG.toHexString(), input, { leaseMs: 5_000, heartbeatMs: 20, sweepMs: 60_000 }).catch((e: unknown) => e)
    expect(err).toMatchObject({ status: 503, code: 'service.unavailable' })
    const sent = wire.server.sent
    expect(sent.some((c) => c.name === 'update' && c.body.update === 'tags')).toBe(false)
    expect(sent.some((c) => c.name === 'delete')).toBe(false)
  })

  it('a batch that meets a failover is sent again, and the rename completes', async () => {
    let slug = 'ml'
    const base = database(() => slug)
    let failed = false
    wire.script = (c, sent) => {
      if (c.name === 'update' && c.body.update === 'tags') slug = 'machine-learning'
      if (c.name === 'update' && c.body.update === 'contents' && !failed) {
        failed = true
        return serverError(10107, 'NotWritablePrimary', ['RetryableWriteError'])
      }
      return base(c, sent)
    }
    expect(await rename.renameTagMongo(wire.payload, TAG.toHexString(), input)).toMatchObject({ outcome: 'renamed' })
    const adds = wire.server.sent.filter((c) => c.name === 'update' && c.body.update === 'contents').map((c) => JSON.stringify((c.body.updates as Document[])[0]!.q))
    expect(adds[0]).toBe(adds[1])
    expect(wire.server.sent.some((c) => c.name === 'delete' && c.body.delete === 'raw_tag_rename_runs')).toBe(true)
  })

  it('a second rename of a tag whose rename runs is `busy`; a taken slug is `taken`: no holder written either way', async () => {
    const duplicate = (keyValue: Document) => ({ ok: 1, n: 0, writeErrors: [{ index: 0, code: 11000, errmsg: 'E11000 duplicate key error', keyValue }] })
    const base = database(() => 'ml')
    wire.script = (c, sent) => (c.name === 'insert' && c.body.insert === 'raw_tag_rename_runs' ? duplicate({ _id: TAG }) : base(c, sent))
    expect(await rename.renameTagMongo(wire.payload, TAG.toHexString(), input)).toEqual({ outcome: 'busy' })
    wire.script = (c, sent) => (c.name === 'insert' && c.body.insert === 'slug-claims' ? duplicate({ slug: 'machine-learning' }) : base(c, sent))
    expect(await rename.renameTagMongo(wire.payload, TAG.toHexString(), input)).toEqual({ outcome: 'taken' })
    expect(writes().some((c) => c.body[c.name] === 'contents')).toBe(false)
  })

  it('while a run is recorded, answers leave out the slug that is no tag\'s', async () => {
    const run = { _id: TAG, oldSlug: 'ml', newSlug: 'machine-learning' }
    wire.script = (c) => {
      if (c.name === 'find' && c.body.find === 'raw_tag_rename_runs') return cursorReply('wire.raw_tag_rename_runs', [run])
      if (c.name === 'find' && c.body.find === 'tags') return cursorReply('wire.tags', [{ _id: TAG, slug: 'ml' }])
      return undefined
    }
    expect([...(await rename.hiddenTagSlugsMongo(wire.payload))]).toEqual(['machine-learning'])
    wire.script = () => undefined
    expect([...(await rename.hiddenTagSlugsMongo(wire.payload))]).toEqual([])
  })
})
