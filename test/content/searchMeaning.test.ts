/**
 * One search meaning on both engines (src/db/searchTerms): the one tokenizer and stop-word
 * list, the words each engine is then asked for (MongoDB through its pinned query documents,
 * SQLite through the FTS5 query it runs), and what a caller gets back through the API on the
 * engine this suite runs on: `foo_bar`, stop words, accents and case, the 3-character
 * threshold and the title weight mean the same everywhere.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { engine } from '../../src/db/engine'
import { contentFilter, contentSort, shortTermPattern } from '../../src/db/mongo/contentQueries'
import { serviceIndexes } from '../../src/db/mongo/indexes'
import { indexedTerms, isStopWord, splitTerms, STOP_WORDS, TEXT_WEIGHTS } from '../../src/db/searchTerms'
import { connection, sqliteFileOf } from '../../src/db/sqlite/connection'
import { FTS_RANK, FTS_TOKENIZE } from '../../src/db/sqlite/contentSchema'
import { testApp, type TestApp } from '../support/app'
import { content, slugs } from './helpers'

const publicList = { statuses: ['approved' as const], includeInactive: false, sort: 'relevance' as const, offset: 0, limit: 30, estimate: false }
const PUBLIC = { status: { $in: ['approved'] }, isActive: true }

describe('the one tokenizer', () => {
  it('keeps `_` inside a word, splits at every other separator, folds case of terms, keeps short words as typed', () => {
    expect(splitTerms('foo_bar C++ node.js e-mail')).toEqual({ terms: ['foo_bar', 'node', 'mail'], shortTerms: ['C', 'js', 'e'] })
    expect(splitTerms('Café RÉSUMÉ Ça')).toEqual({ terms: ['café', 'résumé'], shortTerms: ['Ça'] })
    // Decomposed accents are composed first: 3 characters, not a 2-letter word and a mark.
    expect(splitTerms('e\u0301te\u0301')).toEqual({ terms: ['été'], shortTerms: [] })
    // Repeats (in any case) count once.
    expect(splitTerms('Rust rust RUST go GO')).toEqual({ terms: ['rust'], shortTerms: ['go'] })
  })

  it('drops stop words of 3+ characters (without accents or case) and stop words joined by apostrophes', () => {
    expect(splitTerms('The guide TO the Galaxy')).toEqual({ terms: ['guide', 'galaxy'], shortTerms: ['TO'] })
    expect(splitTerms('thé ABOUT which')).toEqual({ terms: [], shortTerms: [] })
    expect(splitTerms("don't panic, it’s John's")).toEqual({ terms: ['panic', 'john'], shortTerms: [] })
    expect(isStopWord('Doesn’t')).toBe(true)
    expect(STOP_WORDS.size).toBe(174)
  })

  it('engines send only indexed terms: stop words given to an engine are dropped, all stop words leave none', () => {
    expect(indexedTerms(['the', 'rust', 'about'])).toEqual(['rust'])
    expect(indexedTerms(['the', 'about'])).toEqual([])
  })
})

describe('both engines are asked the same words', () => {
  const cases: [q: string, search: string | undefined, shortPatterns: string[]][] = [
    ['foo_bar', 'foo_bar', []],
    ['The Rust book', 'rust book', []],
    ['Café résumé', 'café résumé', []],
    ['go rust', 'rust', ['[gG][oO]']],
    ['Ça va_', 'va_', ['Ç[aA]']],
    ['AI 2.0', undefined, ['[aA][iI]', '2', '0']],
  ]
  it('MongoDB: the text index gets the tokenizer terms; short words the title pattern LIKE would match', () => {
    for (const [q, search, patterns] of cases) {
      const text = splitTerms(q)
      const and = patterns.map((p) => ({ title: { $regex: p } }))
      expect(contentFilter({ ...publicList, text }), q).toEqual({
        ...(search ? { $text: { $search: search } } : {}),
        ...(and.length ? { $and: and } : {}),
        ...PUBLIC,
      })
    }
  })

  it('MongoDB: a query of stop words only matches nothing (no text index, no whole-word fallback)', () => {
    expect(contentFilter({ ...publicList, text: { terms: ['the', 'about'], shortTerms: [] } })).toEqual({ _id: { $in: [] }, ...PUBLIC })
    expect(contentSort({ sort: 'relevance', text: { terms: ['the'], shortTerms: [] } })).toEqual({ approvedAt: -1, _id: -1 })
  })

  it('the short-word pattern folds ASCII letters only, as SQLite LIKE does, and escapes the rest', () => {
    expect(shortTermPattern('aZ')).toBe('[aA][zZ]')
    expect(shortTermPattern('é+')).toBe('é\\+')
    expect(new RegExp(shortTermPattern('Ça')).test('ÇA VA')).toBe(true)
    expect(new RegExp(shortTermPattern('Ça')).test('ça va')).toBe(false)
  })

  it('the same column weights and tokenizer rules on both text indexes', () => {
    const text = serviceIndexes('content').find((p) => p.index.name === 'raw_content_text')!.index
    expect(text).toMatchObject({ weights: { title: 3, description: 1 }, default_language: 'english' })
    expect(TEXT_WEIGHTS).toEqual({ title: 3, description: 1 })
    expect(FTS_RANK).toBe('bm25(3.0, 1.0)')
    expect(FTS_TOKENIZE).toBe(`"porter unicode61 remove_diacritics 2 tokenchars '_'"`)
  })
})

describe('search through the API means the same', () => {
  let app: TestApp
  const get = async (q: string) => {
    const res = await app.request('GET', `/v1/content?q=${encodeURIComponent(q)}&sort=newest`)
    expect(res.status).toBe(200)
    return res.body
  }
  const T = (d: number) => new Date(Date.UTC(2024, 0, d)).toISOString()

  beforeAll(async () => {
    app = await testApp()
    const items: [string, string, string, number][] = [
      ['m-underscore', 'Tuning snake_case names', '', 1],
      ['m-split', 'Snake case names everywhere', '', 2],
      ['m-cafe', 'Café culture', 'A résumé of espresso', 3],
      ['m-stop', 'The about which', 'Those were the days', 4],
      ['m-ca', 'Ça bouge', '', 5],
      // The same length and words; the description match is the newer, so only the weight puts the title match first.
      ['m-title', 'Zymurgy basics', 'brewing notes and more words here', 6],
      ['m-description', 'Brewing notes', 'zymurgy basics and more words here', 7],
    ]
    for (const [slug, title, description, day] of items) await content(app.payload, { slug, title, description, approvedAt: T(day) })
  })

  it('`_` joins: snake_case finds only the item that writes it so, and `snake` alone does not find it', async () => {
    expect(slugs(await get('snake_case'))).toEqual(['m-underscore'])
    expect(slugs(await get('snake'))).toEqual(['m-split'])
  })

  it('a query of stop words only is an empty page (200, total 0), whatever the case or accents', async () => {
    for (const q of ['the about', 'THE Which', 'thé', "don't"]) {
      const body = await get(q)
      expect(body.data, q).toEqual([])
      expect(body.pagination.total, q).toBe(0)
    }
    // Stop words beside a real word are ignored, not required.
    expect(slugs(await get('the culture'))).toEqual(['m-cafe'])
  })

  it('terms fold case and accents; short words fold ASCII case only', async () => {
    for (const q of ['cafe', 'CAFÉ', 'Resume', 'résumé']) expect(slugs(await get(q)), q).toEqual(['m-cafe'])
    expect(slugs(await get('Ça'))).toEqual(['m-ca'])
    expect(slugs(await get('ÇA'))).toEqual(['m-ca'])
    expect(slugs(await get('ça'))).toEqual([])
    expect(slugs(await get('Ça bOUGE'))).toEqual(['m-ca'])
    expect(slugs(await get('ça bouge'))).toEqual([])
  })

  it('a title match outranks the same words in the description (title weight 3 on both engines)', async () => {
    const res = await app.request('GET', '/v1/content?q=zymurgy')
    expect(slugs(res.body)).toEqual(['m-title', 'm-description'])
  })

  // SQLite only: the FTS5 table an older build made (no '_' inside words, unweighted rank).
  it.skipIf(getConfig().database.engine !== 'sqlite')(
    "SQLite: an FTS5 text index made with other settings stops the start, named; its migration rebuilds it with today's meaning",
    async () => {
      const db = connection(sqliteFileOf(getConfig().database.uri))
      db.exec('DROP TABLE raw_content_fts')
      db.exec("CREATE VIRTUAL TABLE raw_content_fts USING fts5(title, description, tokenize = 'porter unicode61 remove_diacritics 2')")
      db.exec("INSERT INTO raw_content_fts(rowid, title, description) SELECT rowid, title, coalesce(description, '') FROM content")
      // The code reads the index with other settings than it was made with: refused, not misread.
      await expect(engine().contentStore(app.payload).prepare()).rejects.toThrow(/raw_content_fts was made with other settings/)
      const { up } = await import('../../src/db/sqlite/migrations/20261125_071500_search_meaning')
      await up({ db: (app.payload.db as unknown as { drizzle: never }).drizzle, payload: app.payload, req: {} as never })
      await engine().contentStore(app.payload).prepare()
      const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'raw_content_fts'").get() as { sql: string }).sql
      expect(sql).toContain(`tokenize = ${FTS_TOKENIZE}`)
      expect(db.prepare("SELECT v FROM raw_content_fts_config WHERE k = 'rank'").get()).toEqual({ v: FTS_RANK })
      expect(Number(Object.values(db.prepare('SELECT count(*) FROM raw_content_fts').get() as object)[0])).toBe(
        Number(Object.values(db.prepare('SELECT count(*) FROM content').get() as object)[0]),
      )
      // A write moves the content generation, so the search reads the index again: the rows the
      // older build indexed answer as the new ones do.
      await content(app.payload, { slug: 'm-new', title: 'Fresh snake_case', approvedAt: T(20) })
      expect(slugs(await get('snake_case'))).toEqual(['m-new', 'm-underscore'])
      expect(slugs(await get('snake'))).toEqual(['m-split'])
    },
  )
})
