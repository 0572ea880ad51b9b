/**
 * Word scores follow the corpus (src/db/sqlite/search/wordCache.ts): after each batch of writes, a
 * word kept from before is scored again for the new N and mean length when no changed row held
 * it or holds it now, and patched otherwise (the changed rows out, back in as they are now).
 * Either way the ranking is FTS5's own `ORDER BY rank, approved_at DESC, id DESC`, row by row,
 * with the same total, and every word's scores are a fresh read's, double for double; and no
 * kept word is read from the index again (the cache's counters say so), across one step or
 * several.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { serviceReader, sqliteFileOf } from '../../src/db/sqlite/connection'
import { textRanker } from '../../src/db/sqlite/search/textRanking'
import { readWordScores } from '../../src/db/sqlite/search/wordReading'
import { decodeWord, type WordScores } from '../../src/db/sqlite/search/wordScores'
import { registry } from '../../src/platform/metrics'
import { seedContent, seedDemo } from '../../src/seed/seed'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
const sqlite = getConfig().database.engine === 'sqlite'
const file = () => sqliteFileOf(getConfig().database.uri)
const run = async (sql: string, args: unknown[] = []) => {
  await ((app.payload.db as any).client as { execute(q: { sql: string; args: unknown[] }): Promise<unknown> }).execute({ sql, args })
}

/** Searches of one, two and three words: common ones, rare ones, ones the writes below touch and ones they do not. */
const QUERIES = [['database'], ['search', 'index'], ['rust', 'kernel', 'compiler'], ['garden', 'photo'], ['typescript', 'testing'], ['quokka', 'database']]
const NEED = 200

/** FTS5's own order of the public matches, and how many there are. */
function fts5Order(words: string[]): { order: number[]; total: number } {
  const match = words.map((w) => `"${w}"`).join(' OR ')
  const db = serviceReader(file())
  const order = (db.all(
    `SELECT f.rowid FROM raw_content_fts f JOIN content c ON c.rowid = f.rowid WHERE raw_content_fts MATCH ? ORDER BY f.rank, c.approved_at DESC, c.id DESC LIMIT ${NEED}`,
    [match],
  ) as number[][]).map((r) => r[0]!)
  const total = Number(db.get('SELECT count(*) FROM raw_content_fts WHERE raw_content_fts MATCH ?', [match])![0])
  return { order, total }
}

/** A word's rows and their scores, as plain arrays. */
function decoded(w: WordScores): { rows: number[]; scores: number[] } {
  const rows = new Int32Array(w.count)
  const scores = new Float64Array(w.count)
  decodeWord(w, rows, scores)
  return { rows: Array.from(rows), scores: Array.from(scores) }
}

async function counter(cache: string, result: 'hit' | 'miss'): Promise<number> {
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`cache_lookups_total{cache="${cache}",result="${result}"}`))
  return Number(line?.split(' ').at(-1) ?? 0)
}

describe.runIf(sqlite)('word scores follow the corpus (SQLite)', () => {
  beforeAll(async () => {
    app = await testApp()
    await seedDemo(app.payload)
    await seedContent(app.payload, 3000, { seed: 11 })
  }, 120_000)

  it('after every kind of write, every search ranks as FTS5 does; every kept word follows, touched or not, none is read again', async () => {
    const ranker = textRanker(file())
    let version = 0
    const rankAll = async (queries = QUERIES) => {
      version += 1
      for (const words of queries) {
        const { order, total } = await ranker.rank(`v${version}`, words, NEED)
        const expected = fts5Order(words)
        expect({ words, version, order: Array.from(order), total }).toEqual({ words, version, ...expected })
        // Each word's scores, followed or read, are the ones a fresh read gives, double for double.
        const { corpus, lists } = await ranker.scores(`v${version}`, words)
        words.forEach((word, i) => {
          const fresh = readWordScores(serviceReader(file()), corpus, word)
          expect({ word, version, ...decoded(lists[i]!) }).toEqual({ word, version, ...decoded(fresh) })
        })
      }
    }
    // Asked twice, so every word is kept.
    await rankAll()
    await rankAll()
    const rowid = (where: string) => Number(serviceReader(file()).get(`SELECT rowid FROM content WHERE ${where} LIMIT 1`)![0])
    const approvedWith = (word: string) => rowid(`status = 'approved' AND is_active = 1 AND title LIKE '%${word}%'`)
    const batches: [string, () => Promise<void>, { followed: boolean }?][] = [
      ['an approval of an item holding none of the words', () => run("UPDATE content SET status = 'approved', approved_at = '2099-01-01T00:00:00.000Z', title = 'Zyzzyva notes', description = NULL WHERE rowid = ?", [rowid("status <> 'approved'")]), { followed: true }],
      ['an approval of an item about quokka databases', () => run("UPDATE content SET status = 'approved', approved_at = '2099-01-02T00:00:00.000Z', title = 'Quokka database design' WHERE rowid = ?", [rowid("status <> 'approved'")]), { followed: false }],
      ['a soft delete of a public item holding "garden"', () => run('UPDATE content SET is_active = 0 WHERE rowid = ?', [approvedWith('garden')]), { followed: false }],
      ['an edit taking "rust" out of a public title', () => run("UPDATE content SET title = 'Renamed entirely' WHERE rowid = ?", [approvedWith('rust')]), { followed: false }],
      ['a rejection of a public item (back out of the index)', () => run("UPDATE content SET status = 'rejected' WHERE rowid = ?", [approvedWith('typescript')]), { followed: false }],
      ['two approvals in one step, none of the words', () => run("UPDATE content SET status = 'approved', approved_at = '2099-01-03T00:00:00.000Z', title = 'Wombat burrows', description = 'Night walks' WHERE rowid IN (SELECT rowid FROM content WHERE status <> 'approved' LIMIT 2)"), { followed: true }],
    ]
    const followedAndRead = async (): Promise<[number, number]> => [await counter('search_terms_followed', 'hit'), await counter('search_terms_followed', 'miss')]
    // Searches ranked again from their kept match groups (src/db/sqlite/search/matchGroups.ts), FTS5's order all the same.
    const groupedBefore = await counter('search_match_groups', 'hit')
    for (const [what, write] of batches) {
      await write()
      const [hits, misses] = await followedAndRead()
      await rankAll()
      const [hitsNow, missesNow] = await followedAndRead()
      // Every kept word followed (rescored or patched), none read from the index again.
      expect({ what, followed: hitsNow - hits > 0, readAgain: missesNow - misses }).toEqual({ what, followed: true, readAgain: 0 })
    }
    // Several steps between a word's asks: a write, a search of other words (a step), a write to a row holding the word, then the word.
    await run("UPDATE content SET title = 'Kernel compiler internals in rust' WHERE rowid = ?", [rowid("status = 'approved' AND is_active = 1 AND title NOT LIKE '%rust%'")])
    await rankAll([QUERIES[0]!])
    await run("UPDATE content SET status = 'approved', approved_at = '2099-01-04T00:00:00.000Z', title = 'Rust kernel modules', description = 'A compiler for rust rust rust' WHERE rowid = ?", [rowid("status <> 'approved'")])
    await rankAll([QUERIES[0]!])
    const [hits, misses] = await followedAndRead()
    await rankAll()
    const [hitsNow, missesNow] = await followedAndRead()
    expect({ followed: hitsNow - hits > 0, readAgain: missesNow - misses }).toEqual({ followed: true, readAgain: 0 })
    expect(await counter('search_match_groups', 'hit')).toBeGreaterThan(groupedBefore)
  }, 120_000)

  it("a search asked once, then again after a write, follows its words' scores from the first ask: none is read from the index again", async () => {
    const ranker = textRanker(file())
    const words = ['kernel', 'garden']
    const expected1 = fts5Order(words)
    expect(await ranker.rank('once-1', words, NEED).then((r) => ({ order: Array.from(r.order), total: r.total }))).toEqual(expected1)
    const [read, followed] = [await counter('search_terms', 'miss'), await counter('search_terms_followed', 'hit')]
    await run("UPDATE content SET status = 'approved', approved_at = '2099-02-01T00:00:00.000Z', title = 'Armadillo shells', description = NULL WHERE rowid = (SELECT rowid FROM content WHERE status <> 'approved' LIMIT 1)")
    const expected2 = fts5Order(words)
    expect(await ranker.rank('once-2', words, NEED).then((r) => ({ order: Array.from(r.order), total: r.total }))).toEqual(expected2)
    expect({ read: (await counter('search_terms', 'miss')) - read, followed: (await counter('search_terms_followed', 'hit')) - followed }).toEqual({ read: 0, followed: 2 })
  }, 120_000)
})
