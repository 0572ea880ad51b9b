/**
 * The search after a write never stalls the event loop (issue 37). At a size where reading the
 * search corpus whole takes well over 50 ms (what the first search after every content write did,
 * on the event loop: 101-118 ms here), a real server process reads the corpus whole once, before
 * it says it is ready, and from then on follows each write, reading only the rows it changed
 * (src/db/sqlite/search/searchCorpus.ts). Held by the server's own counts (`cache_lookups_total{cache=
 * "search_corpus_built"}`: `miss` a whole read, `hit` a followed write), not by a clock: a descheduled
 * process on a busy machine is not a blocked loop (a 58-76 ms "delay" failed a clean-clone run
 * beside a build). The loop's delays are printed, and `npm run bench` reports them. SQLite's
 * corpus; the items are seeded while the rest of the suite runs (./support/largeCorpus.ts),
 * before the server starts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { serviceReader, sqliteFileOf } from '../../src/db/sqlite/connection'
import type { PagedInts } from '../../src/db/sqlite/search/pagedInts'
import { readCorpus, updateCorpus } from '../../src/db/sqlite/search/searchCorpus'
import { testApp } from '../support/app'
import { LARGE_CORPUS, takeLargeCorpus } from './support/largeCorpus'
import { startServer, type ServerProcess } from './support/serverProcess'

const SIZE = LARGE_CORPUS.items
const STALL_MS = 50
const TOKEN = 'write-then-search-metrics-token'
const sqlite = getConfig().database.engine === 'sqlite'

let server: ServerProcess
let admin: string

const call = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as any, text: '' }
}

const metrics = async () => (await fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()

/** The server's longest event-loop delay since the last scrape, in ms (the scrape resets it): printed, not asserted. */
async function lagMax(): Promise<number> {
  const line = (await metrics()).split('\n').find((l) => l.startsWith('nodejs_eventloop_lag_max_seconds '))
  return Number(line?.split(' ')[1]) * 1000
}

/** How the server has had its search corpus so far: read whole, and followed from a write. */
async function corpusReads(): Promise<{ whole: number; followed: number }> {
  const text = await metrics()
  const count = (result: string) => Number(new RegExp(`^cache_lookups_total\\{cache="search_corpus_built",result="${result}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0)
  return { whole: count('miss'), followed: count('hit') }
}

describe.runIf(sqlite)(`a write, then a search, at ${SIZE.toLocaleString('en')} items, in a server process (SQLite: the search corpus in memory)`, () => {
  beforeAll(async () => {
    // The demo data and SIZE items (npm run seed), seeded while the other files ran.
    await takeLargeCorpus(inject('largeCorpus')!, sqliteFileOf(getConfig().database.uri))
    await testApp()
    server = await startServer({ METRICS_TOKEN: TOKEN, RATE_LIMIT_LOGIN: '100/3600' })
    admin = (await call('POST', '/api/v1/auth/login', { email: 'admin@example.com', password: 'admin-password-123' })).body.data.accessToken
  }, 300_000)
  afterAll(() => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL')
  })

  it('reading the corpus whole takes over 50 ms here: the size where every search after a write stalled', () => {
    const started = performance.now()
    readCorpus(serviceReader(sqliteFileOf(getConfig().database.uri)))
    expect(performance.now() - started).toBeGreaterThan(STALL_MS)
  })

  it('the first search after start: the corpus was read before the service said it was ready, not on that request', async () => {
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
    const deadline = Date.now() + 120_000
    while ((await fetch(`http://127.0.0.1:${server.port}/api/v1/ready`)).status !== 200 && Date.now() < deadline) await pause(100)
    const ready = await corpusReads()
    expect(ready.whole).toBe(1)
    await lagMax()
    expect((await call('GET', '/api/v1/content?q=garden%20photo&limit=10')).status).toBe(200)
    await pause(50)
    console.log(`longest event-loop delay over the first search: ${(await lagMax()).toFixed(1)} ms`)
    expect(await corpusReads()).toEqual(ready)
  }, 150_000)

  it('the search after a submission and its approval: the corpus is followed, never read whole, and the new item is found', async () => {
    const search = () => call('GET', '/api/v1/content?q=database%20indexes&limit=10')
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
    expect((await search()).status).toBe(200) // the corpus and the words read once, as a running server has them
    const lags: number[] = []
    const writes: number[] = []
    const before = await corpusReads()
    for (let round = 0; round < 3; round++) {
      await pause(200)
      await lagMax()
      const submitted = await call('POST', '/api/v1/content/submit', { title: `Database indexes in depth, part ${round}`, url: `https://example.com/indexes-${round}`, description: 'How database indexes work.' }, admin)
      expect(submitted.status).toBe(201)
      expect((await call('POST', `/api/v1/content/${submitted.body.data.slug}/approve`, undefined, admin)).status).toBe(200)
      // The approval's follow-ups (thumbnail, notification) done, and what the writes cost read apart.
      await pause(300)
      writes.push(await lagMax())
      const found = await search()
      expect(found.body.data.map((d: { slug: string }) => d.slug)).toContain(submitted.body.data.slug)
      // The histogram's timer records a block once it fires after it.
      await pause(50)
      lags.push(await lagMax())
    }
    const ms = (l: number[]) => l.map((x) => x.toFixed(1)).join(', ')
    console.log(`longest event-loop delays: searches after the writes ${ms(lags)} ms; the writes and their follow-ups ${ms(writes)} ms`)
    // Each write followed (an approval's thumbnail link may be a second change), never read whole.
    const after = await corpusReads()
    expect(after.whole).toBe(before.whole)
    expect(after.followed).toBeGreaterThanOrEqual(before.followed + 3)
  }, 120_000)

  it('an approval followed into the corpus writes the page of each array it falls in and shares the others, and equals the corpus read whole', async () => {
    const reader = () => serviceReader(sqliteFileOf(getConfig().database.uri))
    const before = readCorpus(reader())
    const submitted = await call('POST', '/api/v1/content/submit', { title: 'Paged corpus check', url: 'https://example.com/paged-corpus' }, admin)
    expect((await call('POST', `/api/v1/content/${submitted.body.data.slug}/approve`, undefined, admin)).status).toBe(200)
    const followed = await updateCorpus(reader(), before)
    const pages = (length: number) => Math.ceil(length / 65_536)
    // The order: only its last page (the newest row appended). The rows: the new row's page (and
    // the one after it when the row starts a page), no other: ~0.5 MB made instead of 13 MB at a million.
    expect(pages(before.byOrdinal.length)).toBeGreaterThan(3)
    expect(followed.byOrdinal.sharedPages(before.byOrdinal)).toBe(pages(before.byOrdinal.length) - 1)
    expect(followed.byRow.sharedPages(before.byRow)).toBeGreaterThanOrEqual(pages(before.byRow.length) - 2)
    const whole = readCorpus(reader())
    const same = (a: PagedInts, b: PagedInts) => {
      const n = Math.max(a.length, b.length)
      return Buffer.from(a.slice(0, n).buffer).equals(Buffer.from(b.slice(0, n).buffer))
    }
    expect(same(followed.byOrdinal, whole.byOrdinal)).toBe(true)
    expect(same(followed.byRow, whole.byRow)).toBe(true)
  }, 60_000)
})
