/**
 * Two Payload instances in one process, each on its own SQLite file: every engine operation reads
 * and writes the file of the instance it is given (its write path is found from `payload.db`,
 * src/db/sqlite/writes), and no cache hands one database's answer to the other, even when their
 * generations read the same (src/db/freshness `perDatabase`). Before, the engine's operations
 * used the configured file whatever instance they were given, and the services' caches were one
 * per process, keyed on generation numbers two databases may share.
 */
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { getPayload, type Payload } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import { engine, generation, type Domain } from '../../src/db/engine'
import { generationsOf } from '../../src/db/freshness'
import { statement } from '../../src/db/sqlite/connection'
import { SqliteWrites, writesOf } from '../../src/db/sqlite/writes'
import { getConfig } from '../../src/platform/config'
import type { SerializedAnswer } from '../../src/platform/serializedAnswer'
import { brandingAnswer } from '../../src/services/branding'
import { catalogAnswer } from '../../src/services/catalog'
import { listContentAnswer } from '../../src/services/content'
import type { ListParams } from '../../src/services/contentQuery'
import { content, taxonomy } from '../content/helpers'
import { testApp } from '../support/app'
import { onMongo } from '../support/crossProcess'

const NEWEST: ListParams = { period: 'all', sort: 'newest', status: 'approved', offset: 0, limit: 10, estimate: false }
/** A kept answer's data (its bytes are the envelope's start: the edge writes the rest). */
const dataOf = (answer: SerializedAnswer) => JSON.parse(`${answer.envelopeStart.toString('utf8')}}`).data
const titles = async (payload: Payload) => (dataOf((await listContentAnswer(payload, NEWEST, null)).answer) as { title: string }[]).map((d) => d.title)

/**
 * Moves the lower side's generations until both databases' read the same, as their change feeds
 * would on writes: a process-wide cache keyed on the numbers alone would then answer one database
 * from the other's kept value. (`content` moves `all_content` too, so that one comes last.)
 */
function sameGenerations(x: Payload, y: Payload): void {
  for (const domain of ['content', 'taxonomy', 'branding', 'access', 'all_content'] as Domain[]) {
    for (let i = 0; i < 10_000 && generation(x, domain) !== generation(y, domain); i++) {
      const lower = Number(generation(x, domain)) < Number(generation(y, domain)) ? x : y
      generationsOf(lower.db).changed([domain])
    }
    expect(generation(x, domain), domain).toBe(generation(y, domain))
  }
}

describe.skipIf(onMongo())('two Payload instances in one process, on two SQLite files', () => {
  let a: Payload
  let b: Payload
  let otherFile: string

  beforeAll(async () => {
    a = (await testApp()).payload
    otherFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'second-db-')), 'b.db')
    const config = await (await import('../../payload.config')).default
    // The same configuration but its database, the adapter as the engine makes one (typed as the
    // sanitized config's, whose optional members sanitization filled: the config's own were too).
    const db = engine().adapter({ ...getConfig().database, uri: `file:${otherFile}` }) as typeof config.db
    b = await getPayload({ config: { ...config, db }, key: 'second database' })
    await engine().prepare(b)
    await engine().contentStore(b).prepare()
    await taxonomy(a)
    await content(a, { title: 'Only in the first' })
    await content(b, { title: 'Only in the second' })
  }, 120_000)

  it('each instance has its own write path, on its own file', () => {
    expect(writesOf(b).file).toBe(otherFile)
    expect(writesOf(a).file).not.toBe(otherFile)
    expect(writesOf(b)).not.toBe(writesOf(a))
    expect(writesOf(b).gate).not.toBe(writesOf(a).gate)
  })

  it("each instance's list is its own database's, asked one after the other at the same generations", async () => {
    sameGenerations(a, b)
    expect(await titles(a)).toContain('Only in the first')
    expect(await titles(b)).toEqual(['Only in the second'])
    expect(await titles(a)).not.toContain('Only in the second')
  })

  it("the catalog and /meta are each database's own", async () => {
    sameGenerations(a, b)
    const first = dataOf(await catalogAnswer(a))
    const second = dataOf(await catalogAnswer(b))
    // The taxonomy was made in the first database only.
    expect(first.surfaces.length).toBeGreaterThan(0)
    expect(second.surfaces).toEqual([])
    await b.updateGlobal({ slug: 'branding', data: { name: 'The second' }, overrideAccess: true })
    sameGenerations(a, b)
    const name = async (p: Payload) => dataOf((await brandingAnswer(p, 'http://localhost')).answer).name
    expect(await name(b)).toBe('The second')
    expect(await name(a)).not.toBe('The second')
    expect(await name(b)).toBe('The second')
  })

  it("an engine write lands in the file of the instance it is given", async () => {
    const count = (file: string, key: string) => Number((statement(file, 'SELECT count(*) FROM raw_rate_limits WHERE key = ?').get([key]) as unknown[])[0])
    await engine().hitRateLimit(b, 'two-databases', 1, 60)
    expect(count(otherFile, 'two-databases')).toBe(1)
    expect(count(writesOf(a).file, 'two-databases')).toBe(0)
  })

  it("a second copy of the write path's module (Next's bundle beside the server's) finds each instance's write path", async () => {
    // The module evaluated again under another id: its own module state, as Next's copy has.
    const second = '../../src/db/sqlite/writes/sqliteWrites.ts?second-copy'
    const copy = (await import(/* @vite-ignore */ second)) as typeof import('../../src/db/sqlite/writes/sqliteWrites')
    expect(copy.SqliteWrites).not.toBe(SqliteWrites)
    expect(copy.SqliteWrites.of(a.db)).toBe(writesOf(a))
    expect(copy.SqliteWrites.of(b.db)).toBe(writesOf(b))
  })
})
