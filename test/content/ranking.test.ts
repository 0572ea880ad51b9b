/**
 * The public relevance order is summed from cached per-term scores (src/db/sqlite/search/textRanking),
 * read straight from the index's pages and cut to the rows asked for by a bounded heap. These
 * tests hold it to the definition it replaces: FTS5's own
 * `ORDER BY rank, approved_at DESC, id DESC` over `MATCH "t1" OR "t2" …`, row for row, where
 * rank is bm25 with the title weighted 3 (the index's configured rank).
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { connection, sqliteFileOf } from '../../src/db/sqlite/connection'
import { textRanker } from '../../src/db/sqlite/search/textRanking'
import { generation } from '../../src/db/engine'
import { GENERAL, seedContent, seedDemo } from '../../src/seed/seed'
import { testApp, type TestApp } from '../support/app'
import { content } from './helpers'

let app: TestApp

const sqlite = () => (app.payload.db as any).client as { execute(q: { sql: string; args: unknown[] }): Promise<{ rows: any[] }> }

/** FTS5's answer for the public view, with optional extra SQL conditions on `c`. */
async function oracle(terms: string[], extra = '', extraArgs: unknown[] = []): Promise<string[]> {
  const match = terms.map((t) => `"${t}"`).join(' OR ')
  const res = await sqlite().execute({
    sql: `SELECT c.slug FROM raw_content_fts f JOIN content c ON c.rowid = f.rowid
          WHERE raw_content_fts MATCH ? AND c.status = 'approved' AND c.is_active = 1 ${extra}
          ORDER BY f.rank, c.approved_at DESC, c.id DESC`,
    args: [match, ...extraArgs],
  })
  return res.rows.map((r) => String(r.slug))
}

/** The slugs of rowids, in their order. */
async function slugsOf(rowids: ArrayLike<number>): Promise<string[]> {
  const res = await sqlite().execute({
    sql: 'SELECT c.slug FROM json_each(?) j JOIN content c ON c.rowid = j.value ORDER BY j.key',
    args: [JSON.stringify(Array.from(rowids))],
  })
  return res.rows.map((r) => String(r.slug))
}

/**
 * Searches `q` through the API, every page, and expects FTS5's own order of `terms` and its
 * count; at least `atLeast` matches, so the comparison has rows to compare.
 */
async function expectFtsOrder(q: string, terms: string[], atLeast: number): Promise<void> {
  const expected = await oracle(terms)
  expect(expected.length).toBeGreaterThan(atLeast)
  const got = await searchAll(`q=${q}`)
  expect(got.total).toBe(expected.length)
  expect(got.slugs).toEqual(expected)
}

/** Every page of a search through the API, concatenated, and the reported total. */
async function searchAll(query: string): Promise<{ slugs: string[]; total: number }> {
  const slugs: string[] = []
  let total = -1
  for (let offset = 0; total < 0 || offset < total; offset += 200) {
    const res = await app.request('GET', `/v1/content?${query}&limit=200&offset=${offset}`)
    expect(res.status).toBe(200)
    total = res.body.pagination.total
    slugs.push(...res.body.data.map((d: { slug: string }) => d.slug))
    if (res.body.data.length === 0) break
  }
  return { slugs, total }
}

// SQLite only, by nature: these compare the service's ranking with FTS5's own SQL ranking. MongoDB
// ranks with its text index's score (src/db/mongo), which test/content/list.test.ts covers on any engine.
describe.skipIf(getConfig().database.engine !== 'sqlite')('text search ranking from per-term scores (SQLite FTS5)', () => {
  beforeAll(async () => {
    app = await testApp()
    await seedDemo(app.payload)
    await seedContent(app.payload, 3000, { seed: 11 })
    // Some matches must be hidden from the public: pending, rejected and inactive rows.
    await sqlite().execute({ sql: "UPDATE content SET status = 'pending', approved_at = NULL WHERE rowid % 17 = 0", args: [] })
    await sqlite().execute({ sql: 'UPDATE content SET is_active = 0 WHERE rowid % 23 = 0', args: [] })
    // Equal approval times, so the id tiebreak is exercised too.
    await sqlite().execute({ sql: "UPDATE content SET approved_at = '2025-01-01T00:00:00.000Z' WHERE rowid % 5 = 0 AND status = 'approved'", args: [] })
    // Words the tokenizer stems and folds, repeated in a row; a word in two thirds of all rows
    // (an IDF FTS5 floors at 1e-6, and thousands of matches to page through); a hyphenated
    // word, which FTS5 reads as a two-token phrase.
    const extend = (words: string, where: string) =>
      sqlite().execute({ sql: `UPDATE content SET description = coalesce(description, '') || ' ${words}' WHERE ${where}`, args: [] })
    await extend('Running runners run. Café RÉSUMÉ running', 'rowid % 13 = 1')
    await extend('runs', 'rowid % 11 = 2')
    await extend('resume cafe', 'rowid % 19 = 3')
    await extend('commonplace', 'rowid % 3 <> 0')
    await extend('e-mail', 'rowid % 7 = 4')
    // Rows of 255 tokens and more (a length the corpus keeps outside its byte per row), with a
    // word counted hundreds of times in them.
    await extend(`${'lengthy '.repeat(260)}runners`, 'rowid % 29 = 5')
    await extend(`${'lengthy '.repeat(600)}`, 'rowid % 31 = 6')
  }, 120_000)


  it('matches FTS5 rank order exactly, ties by approvedAt desc then id desc, for one to three terms', async () => {
    const queries = [
      [GENERAL[1]!],
      [GENERAL[2]!, GENERAL[3]!],
      ['typescript', GENERAL[4]!],
      [GENERAL[5]!, GENERAL[6]!, 'kubernetes'],
    ]
    for (const terms of queries) await expectFtsOrder(terms.join('%20'), terms, 20)
  })

  it('never lists pending, rejected or inactive matches, and counts only what it lists', async () => {
    const terms = [GENERAL[7]!, GENERAL[8]!]
    // Hidden matches exist (in the hidden index: the public one holds public rows only).
    const hidden = await sqlite().execute({
      sql: `SELECT count(*) AS n FROM raw_content_fts_hidden f JOIN content c ON c.rowid = f.rowid
            WHERE raw_content_fts_hidden MATCH ? AND (c.status <> 'approved' OR c.is_active = 0)`,
      args: [terms.map((t) => `"${t}"`).join(' OR ')],
    })
    expect(Number(hidden.rows[0].n)).toBeGreaterThan(0)
    const got = await searchAll(`q=${terms.join('%20')}`)
    expect(got.slugs).toEqual(await oracle(terms))
  })

  it('applies the other filters (group, tags, short words) to the ranked order without reordering it', async () => {
    const terms = [GENERAL[9]!, GENERAL[10]!, 'javascript']
    const group = await sqlite().execute({ sql: "SELECT id FROM groups WHERE slug = 'programming'", args: [] })
    const groupId = String(group.rows[0].id)
    const inGroup = (await searchAll(`q=${terms.join('%20')}&group=programming`)).slugs
    expect(inGroup.length).toBeGreaterThan(0)
    expect(inGroup).toEqual(await oracle(terms, 'AND c.group_id = ?', [groupId]))
    const tagged = (await searchAll(`q=${terms.join('%20')}&tags=sql,talk`)).slugs
    expect(tagged.length).toBeGreaterThan(0)
    expect(tagged).toEqual(await oracle(terms, "AND c.rowid IN (SELECT content_rowid FROM raw_content_tags WHERE tag IN ('sql', 'talk'))"))
    const short = (await searchAll(`q=${terms.join('%20')}%20ba`)).slugs
    expect(short.length).toBeGreaterThan(0)
    expect(short).toEqual(await oracle(terms, "AND c.title LIKE '%ba%'"))
  })

  it('follows writes at once: a newly approved match enters in rank order, a deactivated one leaves', async () => {
    const terms = [GENERAL[12]!, GENERAL[13]!]
    const before = await searchAll(`q=${terms.join('%20')}`)
    const pending = await sqlite().execute({
      sql: `SELECT c.id, c.slug FROM raw_content_fts_hidden f JOIN content c ON c.rowid = f.rowid
            WHERE raw_content_fts_hidden MATCH ? AND c.status = 'pending' AND c.is_active = 1 LIMIT 1`,
      args: [terms.map((t) => `"${t}"`).join(' OR ')],
    })
    const newcomer = pending.rows[0]
    expect(newcomer).toBeDefined()
    await app.payload.update({
      collection: 'content',
      id: String(newcomer.id),
      data: { status: 'approved', approvedAt: new Date().toISOString() },
      overrideAccess: true,
    })
    const after = await searchAll(`q=${terms.join('%20')}`)
    expect(after.total).toBe(before.total + 1)
    expect(after.slugs).toContain(String(newcomer.slug))
    expect(after.slugs).toEqual(await oracle(terms))

    const leaving = after.slugs[0]!
    await app.payload.update({ collection: 'content', where: { slug: { equals: leaving } }, data: { isActive: false }, overrideAccess: true })
    const last = await searchAll(`q=${terms.join('%20')}`)
    expect(last.slugs).not.toContain(leaving)
    expect(last.slugs).toEqual(await oracle(terms))
  })

  it('reads words as FTS5 does: stemmed, without accents or case, counted per row', async () => {
    for (const q of ['running', 'run%20cafe', 'r%C3%A9sum%C3%A9', 'CAF%C3%89%20runners', `runs%20${GENERAL[14]}`]) {
      await expectFtsOrder(q, decodeURIComponent(q).toLowerCase().split(' '), 20)
    }
  })

  it('scores rows of 255 tokens and more as FTS5 does (their lengths past a byte)', async () => {
    await expectFtsOrder('lengthy%20runners', ['lengthy', 'runners'], 150)
    await expectFtsOrder('lengthy', ['lengthy'], 150)
  })

  it('pages through thousands of matches of a word in most rows, in FTS5 order to the last page', async () => {
    for (const terms of [['commonplace'], ['commonplace', GENERAL[15]!]]) await expectFtsOrder(terms.join('%20'), terms, 1500)
  })

  it('ranks a word FTS5 reads as a phrase (several tokens) as FTS5 does, and cuts to the rows asked for', async () => {
    const file = sqliteFileOf(getConfig().database.uri)
    const version = generation(app.payload, 'content')
    const ranker = textRanker(file)
    for (const words of [['e-mail', GENERAL[18]!], ['commonplace', 'running', GENERAL[19]!]]) {
      const expected = await oracle(words)
      const all = await ranker.rank(version, words, 100_000)
      expect(all.total).toBe(expected.length)
      expect(await slugsOf(all.order)).toEqual(expected)
      // Only the first `need` rows are put in order; they are the same rows.
      const first = await ranker.rank(version, words, 7)
      expect(first.total).toBe(expected.length)
      expect(Array.from(first.order)).toEqual(Array.from(all.order.subarray(0, 7)))
    }
  })

  it("tokenizes a query's new words together as FTS5 does, and leaves its scratch index empty", async () => {
    const file = sqliteFileOf(getConfig().database.uri)
    const version = generation(app.payload, 'content')
    // A stemmed word, a word of two tokens and a plain one, none asked before in this process.
    const words = ['Runners', 'E-Mail', GENERAL[41]!]
    const ranked = await textRanker(file).rank(version, words, 100_000)
    const expected = await oracle(words)
    expect(expected.length).toBeGreaterThan(0)
    expect(ranked.total).toBe(expected.length)
    expect(await slugsOf(ranked.order)).toEqual(expected)
    // Tokenized inside a savepoint that is rolled back: nothing stays for FTS5 to merge.
    expect(connection(file).prepare('SELECT count(*) FROM temp.raw_fts_tokenizer').raw().get()).toEqual([0])
  })

  it('ranks by bm25 with the title weighted 3: the index rank is bm25(3.0, 1.0), and it reorders rows', async () => {
    const terms = [GENERAL[20]!, GENERAL[21]!]
    const match = terms.map((t) => `"${t}"`).join(' OR ')
    const order = async (rank: string) =>
      (
        await sqlite().execute({
          sql: `SELECT c.slug FROM raw_content_fts f JOIN content c ON c.rowid = f.rowid
                WHERE raw_content_fts MATCH ? AND c.status = 'approved' AND c.is_active = 1
                ORDER BY ${rank}, c.approved_at DESC, c.id DESC`,
          args: [match],
        })
      ).rows.map((r) => String(r.slug))
    const weighted = await order('bm25(raw_content_fts, 3.0, 1.0)')
    expect(await order('f.rank')).toEqual(weighted)
    expect(await order('bm25(raw_content_fts)')).not.toEqual(weighted)
    expect((await searchAll(`q=${terms.join('%20')}`)).slugs).toEqual(weighted)
  })

  it('breaks exact score ties by approvedAt desc then id desc, on every page to the last', async () => {
    // Forty identical rows (equal scores), half of them with one shared approval time.
    for (let i = 0; i < 40; i++) {
      await content(app.payload, {
        slug: `tie-${i}`,
        title: 'Quixotic zebu',
        description: 'zebu',
        approvedAt: i % 2 ? '2025-06-01T00:00:00.000Z' : new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
      })
    }
    const expected = await oracle(['zebu', 'quixotic'])
    expect(expected.length).toBeGreaterThanOrEqual(40)
    for (const limit of [1, 7, 40]) {
      const got: string[] = []
      for (let offset = 0; offset < expected.length; offset += limit) {
        const res = await app.request('GET', `/v1/content?q=zebu%20quixotic&limit=${limit}&offset=${offset}`)
        expect(res.body.pagination.total).toBe(expected.length)
        got.push(...res.body.data.map((d: { slug: string }) => d.slug))
      }
      expect(got).toEqual(expected)
    }
  })

  it('cuts to any number of rows without changing them: the first n are the exhaustive order\'s first n', async () => {
    const file = sqliteFileOf(getConfig().database.uri)
    const version = generation(app.payload, 'content')
    const ranker = textRanker(file)
    const words = ['commonplace', GENERAL[22]!, GENERAL[23]!]
    const all = await ranker.rank(version, words, 1_000_000)
    const expected = await oracle(words)
    expect(await slugsOf(all.order)).toEqual(expected)
    for (const need of [1, 2, 199, 200, 201, 1000, expected.length - 1, expected.length, expected.length + 1]) {
      const cut = await ranker.rank(version, words, need)
      expect(cut.total).toBe(expected.length)
      expect(Array.from(cut.order)).toEqual(Array.from(all.order.subarray(0, need)))
    }
  })

  it('deep pages past the first ranked step read the same order (offset + limit beyond 200, and the last page)', async () => {
    const terms = ['commonplace', GENERAL[24]!]
    const expected = await oracle(terms)
    for (const [offset, limit] of [[190, 20], [399, 3], [1000, 200], [expected.length - 5, 30]] as const) {
      const res = await app.request('GET', `/v1/content?q=${terms.join('%20')}&offset=${offset}&limit=${limit}`)
      expect(res.body.data.map((d: { slug: string }) => d.slug)).toEqual(expected.slice(offset, offset + limit))
      expect(res.body.pagination.total).toBe(expected.length)
    }
  })

  it('drops stop words from the ranked query: the rest rank as if typed alone', async () => {
    const alone = await searchAll(`q=${GENERAL[25]}%20${GENERAL[26]}`)
    expect(alone.slugs).toEqual(await oracle([GENERAL[25]!, GENERAL[26]!]))
    expect(await searchAll(`q=the%20${GENERAL[25]}%20about%20${GENERAL[26]}`)).toEqual(alone)
  })
})
