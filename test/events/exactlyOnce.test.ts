/**
 * Follow-ups exactly once (issue 9, finding 13): the approval and its follow-up jobs commit
 * together; a job is claimed by one runner only, even across processes; the thumbnail and
 * notification tasks are idempotent per item; failures retry with backoff, then give up.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { engine } from '../../src/db/engine'
import { FollowUpRunner } from '../../src/jobs/followUpRunner'
import { runFollowUp, stopFollowUps } from '../../src/jobs/followUps'
import { content, tokenFor } from '../content/helpers'
import { testApp, type TestApp } from '../support/app'
import { TSX } from '../support/tsxChild'

const root = path.resolve(import.meta.dirname, '../..')

async function until<T>(probe: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 100))
  }
}

let app: TestApp
let moderator: string
let submitter: string

beforeAll(async () => {
  app = await testApp()
  // This process "died" right after start-up: no runner claims anything unless a test starts one.
  await stopFollowUps()
  const admin = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
  submitter = String(admin.id)
  moderator = await tokenFor(['content.moderate', 'content.approve'], submitter)
})

const pending = (slug: string) =>
  content(app.payload, { slug, title: `Title ${slug}`, status: 'pending', approvedAt: null, submittedBy: submitter })

const approve = (slug: string) => app.request('POST', `/v1/content/${slug}/approve`, { token: moderator })

async function mediaFor(contentId: string): Promise<number> {
  const found = await app.payload.find({
    collection: 'media',
    where: { filename: { contains: `thumb-${contentId}` } },
    limit: 0,
    overrideAccess: true,
  })
  return found.totalDocs
}

async function notificationsFor(contentId: string): Promise<{ kind: string }[]> {
  const found = await app.payload.find({
    collection: 'notifications',
    where: { content: { equals: contentId } },
    limit: 100,
    depth: 0,
    overrideAccess: true,
  })
  return found.docs
}

const sorted = <T extends { kind: string }>(rows: T[]) => [...rows].sort((a, b) => a.kind.localeCompare(b.kind))

describe('follow-ups commit with the approval', () => {
  it('a crash right after the approval committed loses nothing: the jobs are already queued, and a later runner completes them', async () => {
    const item = await pending('crash-safe')
    const res = await approve('crash-safe')
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('approved')
    // No listener, no runner ran: the rows exist because they committed with the status move.
    const rows = await engine().listFollowUps(app.payload, item.id)
    expect(sorted(rows).map((r) => ({ kind: r.kind, status: r.status, attempts: r.attempts }))).toEqual([
      { kind: 'notify.approved', status: 'queued', attempts: 0 },
      { kind: 'thumbnail', status: 'queued', attempts: 0 },
    ])
    expect(await mediaFor(item.id)).toBe(0)

    const runner = new FollowUpRunner(app.payload, { workerId: 'after-restart' })
    await runner.drain()
    const done = await engine().listFollowUps(app.payload, item.id)
    expect(done.map((r) => [r.kind, r.status, r.attempts, r.claimedBy]).sort()).toEqual([
      ['notify.approved', 'done', 1, 'after-restart'],
      ['thumbnail', 'done', 1, 'after-restart'],
    ])
    expect(await mediaFor(item.id)).toBe(1)
    const doc = await app.payload.findByID({ collection: 'content', id: item.id, depth: 1, overrideAccess: true })
    const thumbnail = typeof doc.thumbnail === 'object' ? doc.thumbnail : null
    expect(thumbnail?.filename).toBe(`thumb-${item.id}.png`)
    expect(doc.thumbnailUrl).toBe(thumbnail?.url)
    expect((await notificationsFor(item.id)).map((n) => n.kind)).toEqual(['content.approved'])
  })

  it('a rejection queues its notification in the same transaction; a refused move queues nothing', async () => {
    const item = await pending('crash-safe-reject')
    const res = await app.request('POST', '/v1/content/crash-safe-reject/reject', { token: moderator, body: { reason: 'Off topic' } })
    expect(res.status).toBe(200)
    expect((await engine().listFollowUps(app.payload, item.id)).map((r) => [r.kind, r.status])).toEqual([['notify.rejected', 'queued']])
    // Approving the rejected item is refused and adds no row.
    expect((await approve('crash-safe-reject')).status).toBe(422)
    expect(await engine().listFollowUps(app.payload, item.id)).toHaveLength(1)
    await new FollowUpRunner(app.payload, { workerId: 'w' }).drain()
    const [note] = await notificationsFor(item.id)
    expect(note).toMatchObject({ kind: 'content.rejected', message: '“Title crash-safe-reject” was not accepted: Off topic' })
    expect(await mediaFor(item.id)).toBe(0)
  })
})

describe('two processes racing over one outbox', () => {
  let child: ReturnType<typeof spawn> | undefined
  afterAll(() => {
    child?.kill('SIGKILL')
  })

  it('40 approvals: each item gets exactly one thumbnail and one notification, and both processes did work', async () => {
    const items: Awaited<ReturnType<typeof pending>>[] = []
    for (let i = 0; i < 40; i++) items.push(await pending(`race-${i}`))
    for (const item of items) expect((await approve(item.slug)).status).toBe(200)

    child = spawn(process.execPath, [...TSX, 'test/events/support/followUpWorker.ts'], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout!.on('data', (c) => (out += String(c)))
    const exited = new Promise<number | null>((resolve) => child!.on('exit', resolve))
    await until(async () => /^ready$/m.test(out), 110_000)

    // Both runners now claim from the same 80 rows at the same time.
    const local = new FollowUpRunner(app.payload, { workerId: 'parent', pollMs: 50 })
    local.start()
    await until(async () => {
      const rows = (await Promise.all(items.map((i) => engine().listFollowUps(app.payload, i.id)))).flat()
      return rows.length === 80 && rows.every((r) => r.status === 'done')
    }, 110_000)
    await local.stop()
    child.stdin!.end('stop\n')
    expect(await exited).toBe(0)

    const rows = (await Promise.all(items.map((i) => engine().listFollowUps(app.payload, i.id)))).flat()
    expect(rows.every((r) => r.attempts === 1)).toBe(true)
    const workers = new Set(rows.map((r) => r.claimedBy))
    expect(workers.has('parent')).toBe(true)
    expect(workers.size).toBe(2) // the child claimed some too: there was a race
    for (const item of items) {
      expect(await mediaFor(item.id)).toBe(1)
      expect((await notificationsFor(item.id)).map((n) => n.kind)).toEqual(['content.approved'])
    }
  }, 240_000)
})

describe('follow-up tasks are idempotent per item', () => {
  it('running the thumbnail and the notification twice for one item creates nothing new', async () => {
    const item = await pending('twice')
    expect((await approve('twice')).status).toBe(200)
    for (let round = 0; round < 2; round++) {
      await runFollowUp(app.payload, { contentId: item.id, kind: 'thumbnail' })
      await runFollowUp(app.payload, { contentId: item.id, kind: 'notify.approved' })
    }
    expect(await mediaFor(item.id)).toBe(1)
    expect(await notificationsFor(item.id)).toHaveLength(1)
    // Concurrently, too: the second notification is refused by the unique (content, kind) key.
    await Promise.all([
      runFollowUp(app.payload, { contentId: item.id, kind: 'notify.approved' }),
      runFollowUp(app.payload, { contentId: item.id, kind: 'notify.approved' }),
    ])
    expect(await notificationsFor(item.id)).toHaveLength(1)
  })

  it('the database refuses a second notification of the same kind for the same item', async () => {
    const item = await pending('unique-note')
    const data = { user: submitter, kind: 'content.approved' as const, content: item.id, message: 'x' }
    await app.payload.create({ collection: 'notifications', data, overrideAccess: true })
    await expect(app.payload.create({ collection: 'notifications', data, overrideAccess: true })).rejects.toThrow()
    expect(await notificationsFor(item.id)).toHaveLength(1)
  })
})

describe('retries', () => {
  it('a failing task is retried with exponential backoff and given up after 3 attempts, recorded and logged', async () => {
    const item = await pending('always-fails')
    expect((await approve('always-fails')).status).toBe(200)
    const calls: number[] = []
    const runner = new FollowUpRunner(app.payload, {
      workerId: 'flaky',
      pollMs: 10,
      backoffMs: 100,
      handlers: {
        thumbnail: async (payload, job) => {
          if (job.contentId !== item.id) return runFollowUp(payload, job) // left by earlier tests
          calls.push(Date.now())
          throw new Error('renderer exploded')
        },
      },
    })
    runner.start()
    const failed = await until(async () => {
      const row = (await engine().listFollowUps(app.payload, item.id)).find((r) => r.kind === 'thumbnail')
      return row?.status === 'failed' ? row : null
    }, 20_000)
    await new Promise((r) => setTimeout(r, 300)) // nothing runs it a fourth time
    await runner.stop()
    expect(calls).toHaveLength(3)
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(100)
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(200)
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, lastError: 'renderer exploded' })
    // The other follow-up of the same approval was unaffected.
    expect((await engine().listFollowUps(app.payload, item.id)).find((r) => r.kind === 'notify.approved')?.status).toBe('done')
    const lines = app.logs.filter((l) => l.msg === 'followup.failed' && l.contentId === item.id)
    expect(lines.map((l) => [l.level, l.attempts, l.willRetry])).toEqual([
      ['warn', 1, true],
      ['warn', 2, true],
      ['error', 3, false],
    ])
  })

  it('stop() waits for the job in hand and leaves the rest queued', async () => {
    const item = await pending('slow-stop')
    expect((await approve('slow-stop')).status).toBe(200)
    let finished = false
    const runner = new FollowUpRunner(app.payload, {
      workerId: 'stopper',
      handlers: {
        thumbnail: async () => {
          await new Promise((r) => setTimeout(r, 300))
          finished = true
        },
        'notify.approved': async () => {
          await new Promise((r) => setTimeout(r, 300))
          finished = true
        },
      },
    })
    runner.start()
    await until(async () => (await engine().listFollowUps(app.payload, item.id)).some((r) => r.attempts === 1), 5_000)
    await runner.stop()
    expect(finished).toBe(true)
    const rows = await engine().listFollowUps(app.payload, item.id)
    expect(rows.map((r) => r.status).sort()).toEqual(['done', 'queued'])
  })
})
