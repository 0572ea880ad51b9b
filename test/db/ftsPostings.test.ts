/**
 * The search reads a word's postings straight from FTS5's index pages (src/db/sqlite/
 * ftsPostings). These tests hold that reader to FTS5's own instance vocabulary, for every
 * term of an index built to exercise the layout: tiny pages (doclists and position lists
 * running over many pages), many segments on several levels (deletions and updates written
 * as newer entries over older ones), a half-done incremental merge, and after an optimize.
 */
import Database from 'libsql'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { FTS_TABLE, FTS_TOKENIZE, FTS_WEIGHTS } from '../../src/db/sqlite/contentSchema'
import { readPostings } from '../../src/db/sqlite/search/ftsPostings'
import type { SqlReader } from '../../src/db/sqlite/connection'
import { readVocabularyPostings } from '../../src/db/sqlite/search/wordReading'

const dir = mkdtempSync(path.join(tmpdir(), 'fts-postings-'))
const db = new Database(path.join(dir, 'fts.db'))

/** The reader interface over this test's own connection (array rows, as the service's). */
const reader: SqlReader = {
  get: (sql, args = []) => db.prepare(sql).raw(true).get(...args) as unknown[] | undefined,
  all: (sql, args = []) => db.prepare(sql).raw(true).all(...args) as unknown[][],
  run: (sql, args = []) => void db.prepare(sql).run(...args),
  exec: (sql) => void db.exec(sql),
  handle: db,
}

/** A deterministic pseudo-random sequence (no flaky inputs). */
function random(seed: number) {
  let x = seed
  return (n: number) => {
    // xorshift32
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) % n
  }
}

const WORDS = Array.from({ length: 60 }, (_, i) => `w${i.toString(36)}x`)
const sentence = (pick: (n: number) => number, n: number) =>
  Array.from({ length: n }, () => WORDS[Math.min(pick(WORDS.length), pick(WORDS.length))]).join(' ')

const terms = () => (db.prepare(`SELECT term FROM temp.vocab_rows`).raw(true).all() as [string][]).map(([t]) => t)

/** Per level of the structure record (%_data id 10): [segments being merged, segments]. */
function levels(): [number, number][] {
  const a = (db.prepare(`SELECT block FROM ${FTS_TABLE}_data WHERE id = 10`).raw(true).get() as unknown[])[0] as Uint8Array
  let at = 4
  const varint = () => {
    let v = 0
    while (a[at]! >= 128) v = v * 128 + (a[at++]! & 127)
    return v * 128 + a[at++]!
  }
  const count = varint()
  varint()
  varint()
  return Array.from({ length: count }, () => {
    const level: [number, number] = [varint(), varint()]
    for (let s = 0; s < level[1] * 3; s++) varint()
    return level
  })
}

/** Every term's postings from the pages, beside the vocabulary's. */
function expectSameAsVocabulary(): number {
  const all = terms()
  expect(all.length).toBeGreaterThan(40)
  let checked = 0
  for (const term of all) {
    const fromPages = readPostings(reader, term, FTS_WEIGHTS)
    expect(fromPages, `the reader knows the layout (${term})`).toBeDefined()
    const pages = { rows: Array.from(fromPages!.rows), weighted: Array.from(fromPages!.weighted) }
    const vocabulary = readVocabularyPostings(reader, term)
    expect(pages).toEqual({ rows: Array.from(vocabulary.rows), weighted: Array.from(vocabulary.weighted) })
    checked += pages.rows.length
  }
  return checked
}

describe('postings read from FTS5 index pages', () => {
  beforeAll(() => {
    db.exec(`CREATE VIRTUAL TABLE ${FTS_TABLE} USING fts5(title, description, tokenize = ${FTS_TOKENIZE})`)
    db.exec(`CREATE VIRTUAL TABLE temp.vocab_rows USING fts5vocab(main, ${FTS_TABLE}, row)`)
    // Tiny pages: every long doclist and long position list runs over several pages.
    db.exec(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}, rank) VALUES ('pgsz', 64)`)
    // No automatic merging: each transaction below leaves a segment of its own.
    db.exec(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}, rank) VALUES ('automerge', 0)`)
    db.exec(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}, rank) VALUES ('crisismerge', 64)`)
    const pick = random(3)
    const insert = db.prepare(`INSERT INTO ${FTS_TABLE}(rowid, title, description) VALUES (?, ?, ?)`)
    for (let batch = 0; batch < 8; batch++) {
      db.transaction(() => {
        for (let i = 0; i < 150; i++) {
          const rowid = batch * 150 + i + 1 + (batch >= 4 ? 1_000_000 : 0) // a wide rowid gap too
          insert.run(rowid, sentence(pick, 1 + pick(4)), sentence(pick, pick(30)))
        }
      })()
    }
    // A position list far longer than a page, in both columns.
    insert.run(5_000_000, `${WORDS[1]} `.repeat(300), `${WORDS[1]} ${WORDS[2]} `.repeat(400))
    // Positions far apart (multi-byte varints), in both columns; 127 apart is the varint
    // 0x81 0x01, whose last byte is not the column marker 1.
    insert.run(5_000_001, `${WORDS[3]} ${'filler '.repeat(300)}${WORDS[3]}`, `${WORDS[4]} ${'filler '.repeat(20_000)}${WORDS[4]} ${WORDS[3]}`)
    insert.run(5_000_002, `${WORDS[5]} ${'filler '.repeat(126)}${WORDS[5]}`, WORDS[5]!)
  })

  afterAll(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('gives every term the rows and weighted counts FTS5 holds, across many segments', () => {
    expect(Number((db.prepare(`SELECT count(*) FROM ${FTS_TABLE}_data`).raw(true).get() as unknown[])[0])).toBeGreaterThan(1000)
    expect(levels().reduce((n, [, segments]) => n + segments, 0)).toBeGreaterThanOrEqual(9)
    expect(expectSameAsVocabulary()).toBeGreaterThan(5000)
  })

  it('sees deletions and updates in newer segments over the older entries', () => {
    const pick = random(5)
    db.transaction(() => {
      db.exec(`DELETE FROM ${FTS_TABLE} WHERE rowid % 7 = 0`)
    })()
    db.transaction(() => {
      const update = db.prepare(`UPDATE ${FTS_TABLE} SET title = ?, description = ? WHERE rowid = ?`)
      for (let rowid = 3; rowid < 1200; rowid += 11) update.run(sentence(pick, 3), sentence(pick, 12), rowid)
    })()
    // Deleted in one segment and re-inserted with new words in the next.
    db.transaction(() => db.exec(`DELETE FROM ${FTS_TABLE} WHERE rowid IN (1, 2, 150, 5000000)`))()
    db.transaction(() => {
      db.prepare(`INSERT INTO ${FTS_TABLE}(rowid, title, description) VALUES (1, ?, '')`).run(WORDS[3])
      db.prepare(`INSERT INTO ${FTS_TABLE}(rowid, title, description) VALUES (150, '', ?)`).run(`${WORDS[4]} `.repeat(90))
    })()
    const deleted = readPostings(reader, WORDS[1]!, FTS_WEIGHTS)!
    expect(Array.from(deleted.rows)).not.toContain(5_000_000)
    expect(Array.from(deleted.rows)).not.toContain(7)
    expect(expectSameAsVocabulary()).toBeGreaterThan(4000)
  })

  it('reads a half-done incremental merge, then the optimized index', () => {
    db.exec(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}, rank) VALUES ('merge', 8)`)
    expect(levels().some(([merging]) => merging > 0)).toBe(true)
    expectSameAsVocabulary()
    db.exec(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}) VALUES ('optimize')`)
    expect(levels().reduce((n, [, segments]) => n + segments, 0)).toBe(1)
    expectSameAsVocabulary()
  })

  it('weights each occurrence by its column (title 3, description 1)', () => {
    db.prepare(`INSERT INTO ${FTS_TABLE}(rowid, title, description) VALUES (9000000, ?, ?)`).run(
      `${WORDS[5]} ${WORDS[5]} zzweightzz`,
      `zzweightzz zzweightzz ${WORDS[5]}`,
    )
    const p = readPostings(reader, 'zzweightzz', FTS_WEIGHTS)!
    expect([Array.from(p.rows), Array.from(p.weighted)]).toEqual([[9_000_000], [3 + 1 + 1]])
  })

  it('finds nothing for a term the index does not hold, before its first or after its last term', () => {
    for (const term of ['0', 'aaaa', 'w1xa', 'zzzzzzzz']) expect(readPostings(reader, term, FTS_WEIGHTS)?.count).toBe(0)
  })

  it('leaves no transaction open and answers inside one that is', () => {
    expect(db.inTransaction).toBe(false)
    db.exec('BEGIN')
    expect(readPostings(reader, WORDS[2]!, FTS_WEIGHTS)?.count).toBeGreaterThan(0)
    expect(db.inTransaction).toBe(true)
    db.exec('COMMIT')
  })
})
