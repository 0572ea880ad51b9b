/**
 * The search corpus follows writes (src/db/sqlite/search/searchCorpus.ts, updateCorpus): after any mix
 * of writes (submissions, approvals, rejections, soft deletes and restores, edited titles and
 * descriptions, equal approval times, writes straight to SQL), the corpus followed from the one
 * before is the one read whole at that moment: N, the mean length, every row's length, public
 * mark and recency ordinal, the recency order. It reads whole instead when the record of changes
 * no longer reaches back (pruned, or a bulk load's "everything changed").
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { PagedInts } from '../../src/db/sqlite/search/pagedInts'
import { readCorpus, updateCorpus, type Corpus } from '../../src/db/sqlite/search/searchCorpus'
import { serviceReader, sqliteFileOf } from '../../src/db/sqlite/connection'
import { seedContent, seedDemo } from '../../src/seed/seed'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
const sqlite = getConfig().database.engine === 'sqlite'
const reader = () => serviceReader(sqliteFileOf(getConfig().database.uri))
/** A write straight to SQL, through Payload's own client (which takes the write gate). */
const run = async (sql: string, args: unknown[] = []) => {
  await ((app.payload.db as any).client as { execute(q: { sql: string; args: unknown[] }): Promise<unknown> }).execute({ sql, args })
}

/** The two corpora hold the same ranking inputs (`longest` may stay above the largest length: it only sizes a table). */
function expectSame(followed: Corpus, whole: Corpus) {
  expect(followed.rows).toBe(whole.rows)
  expect(followed.avgdl).toBe(whole.avgdl)
  expect(followed.changeSeq).toBe(whole.changeSeq)
  expect(Array.from(followed.byOrdinal.slice())).toEqual(Array.from(whole.byOrdinal.slice()))
  const rows = Math.max(followed.publicLength.length, whole.publicLength.length)
  const at = (a: Uint8Array | PagedInts, i: number) => (a instanceof PagedInts ? a.get(i) : i < a.length ? a[i]! : 0)
  const differences: string[] = []
  for (let r = 0; r < rows; r++) {
    if (at(followed.publicLength, r) !== at(whole.publicLength, r)) differences.push(`publicLength[${r}] ${at(followed.publicLength, r)} vs ${at(whole.publicLength, r)}`)
    if (at(followed.byRow, 2 * r) !== at(whole.byRow, 2 * r)) differences.push(`ordinal[${r}] ${at(followed.byRow, 2 * r)} vs ${at(whole.byRow, 2 * r)}`)
    if (at(followed.byRow, 2 * r + 1) !== at(whole.byRow, 2 * r + 1)) differences.push(`length[${r}] ${at(followed.byRow, 2 * r + 1)} vs ${at(whole.byRow, 2 * r + 1)}`)
  }
  expect(differences.slice(0, 10)).toEqual([])
  expect(followed.longest).toBeGreaterThanOrEqual(whole.longest)
}

describe.runIf(sqlite)('the search corpus follows writes (SQLite)', () => {
  beforeAll(async () => {
    app = await testApp()
    await seedDemo(app.payload)
    await seedContent(app.payload, 2000, { seed: 7 })
  }, 120_000)

  it('equals the corpus read whole after every kind of write, batch after batch', async () => {
    let corpus = readCorpus(reader())
    const rowids = (reader().all('SELECT rowid FROM content ORDER BY rowid') as number[][]).map((r) => r[0]!)
    const pick = (i: number) => rowids[(i * 7919) % rowids.length]!
    const batches: (() => Promise<void> | void)[] = [
      // Through the services and Payload.
      async () => {
        const admin = (await app.request('POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: 'admin-password-123' }, headers: { 'x-forwarded-for': '10.9.9.9' } })).body.data.accessToken
        for (let i = 0; i < 5; i++) {
          const res = await app.request('POST', '/v1/content/submit', { token: admin, body: { title: `Followed corpus item ${i} about indexes`, url: `https://example.com/followed-${i}`, description: 'words '.repeat(i * 40) } })
          expect(res.status).toBe(201)
          if (i % 2 === 0) expect((await app.request('POST', `/v1/content/${res.body.data.slug}/approve`, { token: admin })).status).toBe(200)
        }
      },
      // Straight to SQL: moved out of and into the public view, retitled, re-timed (ties included).
      () => run("UPDATE content SET status = 'pending', approved_at = NULL WHERE rowid IN (?, ?, ?)", [pick(1), pick(2), pick(3)]),
      () => run('UPDATE content SET is_active = 0 WHERE rowid IN (?, ?)', [pick(4), pick(5)]),
      () => run("UPDATE content SET title = title || ' with a much longer title than it had', description = NULL WHERE rowid IN (?, ?)", [pick(6), pick(7)]),
      () => run("UPDATE content SET approved_at = '2025-06-01T00:00:00.000Z' WHERE rowid IN (?, ?, ?, ?) AND status = 'approved'", [pick(8), pick(9), pick(10), pick(11)]),
      () => run("UPDATE content SET status = 'approved', approved_at = '2025-06-01T00:00:00.000Z', is_active = 1 WHERE rowid IN (?, ?)", [pick(1), pick(4)]),
      () => run("UPDATE content SET approved_at = '2099-01-01T00:00:00.000Z' WHERE rowid = ? AND status = 'approved'", [pick(12)]),
      () => run("UPDATE content SET status = 'rejected' WHERE rowid IN (SELECT rowid FROM content WHERE status = 'approved' ORDER BY approved_at DESC LIMIT 3)"),
      () => run("UPDATE content SET status = 'approved', approved_at = (SELECT max(approved_at) FROM content) WHERE rowid = ?", [pick(13)]),
    ]
    for (const [i, batch] of batches.entries()) {
      await batch()
      const followed = await updateCorpus(reader(), corpus)
      expect(followed, `batch ${i}`).not.toBe(corpus)
      expectSame(followed, readCorpus(reader()))
      // The step names the changed rows that were public before it: the only ones a word's cached rows can hold.
      const { rows, wasPublic } = followed.step!
      expect({ batch: i, wasPublic: Array.from(wasPublic) }).toEqual({ batch: i, wasPublic: Array.from(rows).filter((r) => corpus.byRow.get(2 * r) > 0) })
      corpus = followed
    }
    // Nothing written since: the same corpus.
    expect(await updateCorpus(reader(), corpus)).toBe(corpus)
  }, 120_000)

  it('an update that changes no text, status or approval time (Payload sets every column) neither re-indexes the row nor records a change', async () => {
    const corpus = await updateCorpus(reader(), readCorpus(reader()))
    const indexes = () => reader().all('SELECT (SELECT count(*) || \':\' || max(id) FROM raw_content_fts_data), (SELECT count(*) || \':\' || max(id) FROM raw_content_fts_hidden_data)')
    const before = indexes()
    const [publicRow, pendingRow] = ["status = 'approved' AND is_active = 1", "status = 'pending'"].map((w) => String(reader().get(`SELECT id FROM content WHERE ${w} LIMIT 1`)![0]))
    // A save through Payload that changes none of them (as an approval's follow-up linking the thumbnail): every column set again.
    for (const id of [publicRow!, pendingRow!]) {
      await app.payload.update({ collection: 'content', id, data: {}, overrideAccess: true, context: { followUp: true } })
    }
    await run("UPDATE content SET title = title, description = description, status = status, is_active = is_active, approved_at = approved_at, url = url || '#'")
    expect(await updateCorpus(reader(), corpus)).toBe(corpus)
    expect(indexes()).toEqual(before)
    // A changed title still is both.
    await run("UPDATE content SET title = title || ' renamed' WHERE id = ?", [publicRow])
    expect(await updateCorpus(reader(), corpus)).not.toBe(corpus)
    expect(indexes()).not.toEqual(before)
  })

  it('reads whole when the record no longer reaches back: a bulk load says everything changed', async () => {
    const before = readCorpus(reader())
    await seedContent(app.payload, 50, { seed: 8 })
    const after = await updateCorpus(reader(), before)
    expectSame(after, readCorpus(reader()))
    expect(after.rows).toBe(before.rows + 50)
  }, 60_000)

  it('reads whole when the changes were pruned past it', async () => {
    const before = readCorpus(reader())
    // 25,000 changes: the record keeps the last 20,000 (pruned every thousandth).
    for (let i = 0; i < 25; i++) await run(`INSERT INTO raw_content_text_changes(row) SELECT ? FROM (SELECT 1 FROM content LIMIT 1000)`, [rowids0()])
    expect(Number(reader().get('SELECT min(seq) FROM raw_content_text_changes')![0])).toBeGreaterThan(before.changeSeq + 1)
    expectSame(await updateCorpus(reader(), before), readCorpus(reader()))
  })
})

/** A rowid that exists (the record's entries name rows; what they are does not matter here). */
function rowids0(): number {
  return Number(reader().get('SELECT min(rowid) FROM content')![0])
}

describe.runIf(sqlite)('the public text index holds public rows only (SQLite)', () => {
  let admin: string
  let member: string
  beforeAll(async () => {
    app = await testApp()
    admin = (await app.request('POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: 'admin-password-123' }, headers: { 'x-forwarded-for': '10.9.9.8' } })).body.data.accessToken
    const { createUser, login } = await import('../auth/helpers')
    const m = await createUser(app)
    member = (await login(app, m.email, m.password)).accessToken
  })

  it('a pending submission leaves the public statistics as they were; its approval moves them', async () => {
    const before = readCorpus(reader())
    const submitted = await app.request('POST', '/v1/content/submit', { token: member, body: { title: 'Quasar telemetry pipelines', url: 'https://example.com/quasar-telemetry', description: 'Telemetry for quasars.' } })
    expect(submitted.status).toBe(201)
    const pending = readCorpus(reader())
    expect([pending.rows, pending.avgdl]).toEqual([before.rows, before.avgdl])
    expect((await app.request('POST', `/v1/content/${submitted.body.data.slug}/approve`, { token: admin })).status).toBe(200)
    expect(readCorpus(reader()).rows).toBe(before.rows + 1)
  })

  it("moderators' searches find what the public index does not hold: pending with status=pending, both with status=all", async () => {
    const submitted = await app.request('POST', '/v1/content/submit', { token: member, body: { title: 'Quasar dashboards for operators', url: 'https://example.com/quasar-dashboards' } })
    expect(submitted.status).toBe(201)
    const slugs = async (query: string, token?: string) => (await app.request('GET', `/v1/content?q=quasar&${query}`, { token })).body.data.map((d: { slug: string }) => d.slug)
    expect(await slugs('')).toEqual(['quasar-telemetry-pipelines'])
    expect(await slugs('status=pending', admin)).toEqual(['quasar-dashboards-for-operators'])
    expect((await slugs('status=all', admin)).sort()).toEqual(['quasar-dashboards-for-operators', 'quasar-telemetry-pipelines'])
  })
})
