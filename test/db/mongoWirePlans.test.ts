/**
 * Every workflow write on MongoDB, seen on the wire: the real Payload (mongoose adapter), the
 * real MongoDB applier (src/db/mongo/planApplier.ts) and the real driver against the scripted
 * wire server (test/support/mongoWireServer). For each plan: every command of the transaction
 * carries one lsid and txnNumber and autocommit: false, the first opens it; a WriteConflict
 * (TransientTransactionError) on the first attempt re-runs the whole transaction and its
 * effect is committed once; an unknown commit result re-sends only the commit; a plan whose
 * guard fails is aborted, nothing committed. And no plan writes a shared document.
 */
import { ObjectId, type Document } from 'mongodb'
import type { Payload } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import type { WritePlan } from '../../src/db/writePlan'

import { cursorReply, serverError, type Script, type SentCommand, wireFile } from '../support/mongoWireServer'

const wire = wireFile()

let engine: typeof import('../../src/db/engine')
let plans: typeof import('../../src/db/workflow')

beforeAll(async () => {
  engine = await import('../../src/db/engine')
  plans = await import('../../src/db/workflow')
})

const A = '65a1b2c3d4e5f60718293a4b'
const B = '65a1b2c3d4e5f60718293a4c'
const at = new Date('2024-05-01T10:00:00.000Z')
const event = { actorId: A, action: 'approve' as const, targetSlug: 's', stateBefore: 'pending', stateAfter: 'approved', reason: null, at }

/** A claimable job, as the outbox stores it. */
const job = { _id: new ObjectId(B), contentId: A, kind: 'thumbnail', attempts: 1 }

type Case = {
  name: string
  plan: () => WritePlan
  /** The plan's writes, `<command> <collection>`, in order, as one transaction sends them. */
  writes: string[]
  /** Reads inside the transaction (the reorder's children, the claimed job). */
  reads?: Script
  /** One step on one document: a plain retryable write, no transaction. */
  single?: true
}

const cases = (): Case[] => [
  {
    name: 'status move (approve: the move, two follow-ups, the audit event)',
    plan: () =>
      plans.statusMovePlan({ id: A, from: 'pending', to: 'approved', at, approvedAt: at, rejectionReason: null, followUps: ['thumbnail', 'notify.approved'], event }),
    writes: ['update contents', 'update raw_follow_ups', 'update raw_follow_ups', 'insert moderation-events'],
  },
  {
    name: 'recorded update (soft delete: the flag, the queued follow-ups cancelled, the audit event)',
    plan: () =>
      plans.recordedUpdatePlan({ collection: 'content', id: A, expect: { isActive: true, status: 'approved' }, set: { isActive: false }, domain: 'content', event, cancelFollowUps: true }),
    writes: ['update contents', 'delete raw_follow_ups', 'insert moderation-events'],
  },
  {
    name: 'recorded update (taxonomy rename)',
    plan: () => plans.recordedUpdatePlan({ collection: 'groups', id: A, expect: { slug: 'a' }, set: { slug: 'b' }, domain: 'taxonomy', event }),
    writes: ['update groups', 'insert moderation-events'],
  },
  {
    name: 'tag rename (the tag, its slug claim moved, every holder, the rename record, the audit event)',
    plan: () => plans.tagRenamePlan(A, { oldSlug: 'ml', newSlug: 'machine-learning', actorId: A, at }),
    writes: ['update tags', 'delete slug-claims', 'insert slug-claims', 'update contents', 'insert tag-renames', 'insert moderation-events'],
  },
  {
    name: 'recorded update (surface rename: the slug claim moves with it)',
    plan: () =>
      plans.recordedUpdatePlan({ collection: 'surfaces', id: A, expect: { slug: 'a' }, set: { slug: 'b' }, domain: 'taxonomy', event, slugClaim: { entity: 'surface', slug: 'b' } }),
    writes: ['update surfaces', 'delete slug-claims', 'insert slug-claims', 'insert moderation-events'],
  },
  {
    name: 'taxonomy reorder (the list guard written, the children read and checked, then each order)',
    plan: () => plans.reorderPlan({ collection: 'groups', parent: { field: 'surface', id: A }, orderedIds: [B, A], at }),
    writes: ['update raw_sibling_guards', 'find groups', 'update groups', 'update groups'],
    reads: (c) => (c.name === 'find' && c.body.find === 'groups' ? cursorReply('wire.groups', [{ _id: new ObjectId(A) }, { _id: new ObjectId(B) }]) : undefined),
  },
  {
    name: 'refresh-token claim',
    plan: () => plans.refreshClaimPlan('hash', 'rotated', at, { sealed: 'sealed', until: at }),
    writes: ['update refresh-tokens'],
    single: true,
  },
  {
    name: 'follow-up claim',
    plan: () => plans.claimFollowUpPlan({ worker: 'w', now: at, leaseMs: 60_000 }),
    writes: ['findAndModify raw_follow_ups'],
    reads: (c) => (c.name === 'findAndModify' ? { ok: 1, value: job, lastErrorObject: { n: 1, updatedExisting: true } } : undefined),
    single: true,
  },
  {
    name: 'follow-up done',
    plan: () => plans.completeFollowUpPlan(B, 'w', at),
    writes: ['update raw_follow_ups'],
    single: true,
  },
  {
    name: 'follow-up failed (retry later)',
    plan: () => plans.failFollowUpPlan({ id: B, worker: 'w', error: 'boom', retryAt: at, at }),
    writes: ['update raw_follow_ups'],
    single: true,
  },
]

const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify', 'find', 'commitTransaction', 'abortTransaction'])
const txOf = (c: SentCommand) => `${c.session}/${c.txnNumber}`
/** The commands sent in transactions (start-up index work on the outbox runs outside any). */
const transactional = () => wire.server.sent.filter((c) => WRITE_COMMANDS.has(c.name) && c.txnNumber !== undefined)
const label = (c: SentCommand) => (c.name.endsWith('Transaction') ? c.name : `${c.name} ${String(c.body[c.name])}`)

/** The commands of the one committed transaction, and every transaction sent. */
function committed() {
  const all = transactional()
  const commits = all.filter((c) => c.name === 'commitTransaction')
  const tx = commits.length ? txOf(commits[0]!) : ''
  return { commits, writes: all.filter((c) => txOf(c) === tx && !c.name.endsWith('Transaction')), all }
}

describe.each(cases().filter((c) => c.single))('$name', ({ plan, writes, reads }) => {
  it('one plain retryable write: no transaction (no startTransaction, autocommit or commit)', async () => {
    wire.script = (c, sent) => reads?.(c, sent)
    const result = await engine.engine().applyPlan(wire.payload, plan())
    expect(result.outcome).toBe('done')
    const sent = wire.server.sent.filter((c) => WRITE_COMMANDS.has(c.name))
    expect(sent.map(label)).toEqual(writes)
    expect(sent[0]!.startTransaction).toBeUndefined()
    expect(sent[0]!.body.autocommit).toBeUndefined()
    // A retryable write: a session and a transaction number, so a re-send applies once.
    expect(sent[0]!.txnNumber).toBeGreaterThan(0)
    if (sent[0]!.name === 'update') expect((sent[0]!.body.updates as Document[])[0]!.multi).not.toBe(true)
  })

  it('a failover during the write: the driver re-sends it once under the same transaction number', async () => {
    let failures = 1
    wire.script = (c, sent) =>
      WRITE_COMMANDS.has(c.name) && failures-- > 0 ? serverError(10107, 'NotWritablePrimary', ['RetryableWriteError']) : reads?.(c, sent)
    const result = await engine.engine().applyPlan(wire.payload, plan())
    expect(result.outcome).toBe('done')
    const sent = wire.server.sent.filter((c) => WRITE_COMMANDS.has(c.name))
    expect(sent.map(label)).toEqual([...writes, ...writes])
    expect(txOf(sent[1]!)).toBe(txOf(sent[0]!))
  })

  it('a guard that no longer holds is the plan\'s outcome, nothing else sent', async () => {
    wire.script = (c) =>
      c.name === 'findAndModify' ? { ok: 1, value: null, lastErrorObject: { n: 0, updatedExisting: false } } : c.name === 'update' ? { ok: 1, n: 0, nModified: 0 } : undefined
    const result = await engine.engine().applyPlan(wire.payload, plan())
    expect(['lost', 'done']).toContain(result.outcome)
    if (writes[0]!.startsWith('findAndModify')) expect(result.claimed).toBeNull()
    else expect(result.outcome).toBe('lost')
    expect(wire.server.sent.filter((c) => WRITE_COMMANDS.has(c.name)).map(label)).toEqual(writes)
  })
})

describe.each(cases().filter((c) => !c.single))('$name', ({ plan, writes, reads }) => {
  it('one transaction: every command with the same lsid and txnNumber, autocommit false, the first opening it, one commit', async () => {
    wire.script = (c, sent) => reads?.(c, sent)
    const result = await engine.engine().applyPlan(wire.payload, plan())
    expect(result.outcome).toBe('done')
    const all = transactional()
    expect(all.map(label)).toEqual([...writes, 'commitTransaction'])
    expect(new Set(all.map(txOf)).size).toBe(1)
    expect(all[0]!.session).toMatch(/^[0-9a-f]{32}$/)
    expect(all.map((c) => c.startTransaction ?? false)).toEqual(all.map((_, i) => i === 0))
    expect(all.every((c) => c.body.autocommit === false)).toBe(true)
    // No counter or other shared document rides along.
    expect(wire.server.sent.some((c) => String(c.body[c.name]).startsWith('raw_versions'))).toBe(false)
  })

  it('a WriteConflict on the first attempt re-runs the whole transaction; its effect is committed once', async () => {
    let conflicts = 1
    wire.script = (c, sent) =>
      c.txnNumber !== undefined && !c.name.endsWith('Transaction') && conflicts-- > 0
        ? serverError(112, 'WriteConflict', ['TransientTransactionError'])
        : reads?.(c, sent)
    const result = await engine.engine().applyPlan(wire.payload, plan())
    expect(result.outcome).toBe('done')
    const { commits, writes: done, all } = committed()
    expect(commits).toHaveLength(1)
    expect(done.map(label)).toEqual(writes)
    // The first attempt: its first command failed, then it was aborted; the second is a new transaction.
    expect(all.slice(0, 2).map(label)).toEqual([writes[0], 'abortTransaction'])
    expect(txOf(all[2]!)).not.toBe(txOf(all[0]!))
    expect(all[2]!.startTransaction).toBe(true)
  })

  it('an unknown commit result re-sends only the commit, never the writes', async () => {
    let unknown = 2
    wire.script = (c, sent) =>
      c.name === 'commitTransaction' && unknown-- > 0 ? serverError(50, 'MaxTimeMSExpired', ['UnknownTransactionCommitResult']) : reads?.(c, sent)
    const result = await engine.engine().applyPlan(wire.payload, plan())
    expect(result.outcome).toBe('done')
    const all = transactional()
    expect(all.map(label)).toEqual([...writes, 'commitTransaction', 'commitTransaction', 'commitTransaction'])
    expect(new Set(all.map(txOf)).size).toBe(1)
    // A re-sent commit asks for a majority (the driver's rule for a retried commit), so it cannot be rolled back.
    const commits = all.filter((c) => c.name === 'commitTransaction')
    for (const again of commits.slice(1)) expect((again.body.writeConcern as Document | undefined)?.w).toBe('majority')
  })
})

describe('a guard that no longer holds', () => {
  it('ends the plan with its outcome: aborted, nothing committed, the generation unmoved', async () => {
    const before = engine.generation(wire.payload, 'content')
    // The item is no longer pending: the guarded update matches nothing.
    wire.script = (c) => (c.name === 'update' && c.body.update === 'contents' ? { ok: 1, n: 0, nModified: 0 } : undefined)
    const result = await engine
      .engine()
      .applyPlan(wire.payload, plans.statusMovePlan({ id: A, from: 'pending', to: 'rejected', at, approvedAt: null, rejectionReason: 'x', followUps: ['notify.rejected'], event }))
    expect(result.outcome).toBe('unchanged')
    expect(transactional().map(label)).toEqual(['update contents', 'abortTransaction'])
    const after = engine.generation(wire.payload, 'content')
    // Blind (no stream yet) generations never repeat; a live one must be unmoved.
    if (!after.startsWith('blind') && !before.startsWith('blind')) expect(after).toBe(before)
  })

  it('a reorder list that is not the children is a mismatch naming the children found', async () => {
    wire.script = (c) => (c.name === 'find' && c.body.find === 'groups' ? cursorReply('wire.groups', [{ _id: new ObjectId(A) }]) : undefined)
    const result = await engine.engine().applyPlan(wire.payload, plans.reorderPlan({ collection: 'groups', parent: { field: 'surface', id: A }, orderedIds: [A, B], at }))
    expect(result).toMatchObject({ outcome: 'mismatch', actual: [A] })
    expect(wire.server.named('commitTransaction')).toHaveLength(0)
  })

  it('a duplicate key on the rename is the outcome `taken`, aborted', async () => {
    wire.script = (c) => (c.name === 'update' && c.body.update === 'tags' ? { ok: 1, n: 0, nModified: 0, writeErrors: [{ index: 0, code: 11000, errmsg: 'E11000 duplicate key error index: slug_1 dup key', keyValue: { slug: 'machine-learning' } }] } : undefined)
    const result = await engine.engine().applyPlan(wire.payload, plans.tagRenamePlan(A, { oldSlug: 'ml', newSlug: 'machine-learning', actorId: A, at }))
    expect(result.outcome).toBe('taken')
    expect(wire.server.named('commitTransaction')).toHaveLength(0)
  })
})

describe('a reorder against a sibling inserted meanwhile (src/db/mongo/siblingGuards.ts)', () => {
  it("writes the list's guard first; when an insert's transaction took it (WriteConflict), runs again and finds the new sibling: mismatch", async () => {
    const C = '65a1b2c3d4e5f60718293a4d'
    let conflicts = 1
    let children = [A, B]
    wire.script = (c) => {
      if (c.name === 'update' && c.body.update === 'raw_sibling_guards' && conflicts-- > 0) {
        // The insert committed meanwhile: the next read shows it.
        children = [A, B, C]
        return serverError(112, 'WriteConflict', ['TransientTransactionError'])
      }
      if (c.name === 'find' && c.body.find === 'groups') return cursorReply('wire.groups', children.map((id) => ({ _id: new ObjectId(id) })))
      return undefined
    }
    const result = await engine.engine().applyPlan(wire.payload, plans.reorderPlan({ collection: 'groups', parent: { field: 'surface', id: A }, orderedIds: [B, A], at }))
    expect(result).toMatchObject({ outcome: 'mismatch', actual: [A, B, C] })
    const guards = wire.server.sent.filter((c) => c.name === 'update' && c.body.update === 'raw_sibling_guards')
    expect(guards).toHaveLength(2)
    expect((guards[0]!.body.updates as Document[])[0]).toMatchObject({ q: { _id: `groups|surface|${A}` }, u: { $inc: { writes: 1 } }, upsert: true })
    expect(wire.server.named('commitTransaction')).toHaveLength(0)
  })

  it("a Payload save that adds a child writes the same guard in the save's own transaction", async () => {
    const surface = new ObjectId(A)
    wire.script = (c) => (c.name === 'find' && c.body.find === 'surfaces' ? cursorReply('wire.surfaces', [{ _id: surface, slug: 's', label: 'S' }]) : undefined)
    await wire.payload
      .create({ collection: 'groups', data: { surface: A, slug: `g-${Date.now()}`, label: 'G', color: '#336699', displayOrder: 0, isActive: true }, overrideAccess: true })
      .catch(() => undefined)
    const insert = wire.server.sent.find((c) => c.name === 'insert' && c.body.insert === 'groups')
    const guard = wire.server.sent.find((c) => c.name === 'update' && c.body.update === 'raw_sibling_guards')
    expect(insert).toBeDefined()
    expect(guard).toBeDefined()
    expect((guard!.body.updates as Document[])[0]).toMatchObject({ q: { _id: `groups|surface|${A}` } })
    expect(txOf(guard!)).toBe(txOf(insert!))
  })
})

describe('what the applier writes, as Payload stores it', () => {
  it('the status move: ObjectIds for ids and relationships, Dates for instants, the job keyed by (contentId, kind)', async () => {
    await engine.engine().applyPlan(wire.payload, plans.statusMovePlan({ id: A, from: 'pending', to: 'approved', at, approvedAt: at, rejectionReason: null, followUps: ['thumbnail'], event }))
    const [move, enqueue, audit] = transactional()
    expect((move!.body.updates as Document[])[0]).toMatchObject({
      q: { $and: [{ _id: new ObjectId(A) }, { status: 'pending' }, { isActive: { $ne: false } }] },
      u: { $set: { status: 'approved', approvedAt: at, rejectionReason: null, updatedAt: at } },
    })
    const upsert = (enqueue!.body.updates as Document[])[0]!
    expect(upsert).toMatchObject({ q: { contentId: A, kind: 'thumbnail' }, upsert: true, u: { $setOnInsert: { status: 'queued', attempts: 0, nextRunAt: at } } })
    expect(upsert.u.$setOnInsert._id).toBeInstanceOf(ObjectId)
    expect((audit!.body.documents as Document[])[0]).toMatchObject({ actor: new ObjectId(A), action: 'approve', targetId: A, at, createdAt: at })
  })
})
