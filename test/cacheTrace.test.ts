/**
 * One place to see why an answer was served (issue 54.3): at log level debug, every /api/v1
 * request writes a `request.caches` line listing each cache lookup its answer took, in order, with
 * the version it was looked up at; a second identical read shows the answer's cache hit.
 */
import { describe, expect, it } from 'vitest'

process.env.LOG_LEVEL = 'debug'

import { getConfig } from '../src/platform/config'
import { content, taxonomy } from './content/helpers'
import { testApp } from './support/app'

const sqlite = getConfig().database.engine === 'sqlite'

type Lookup = { cache: string; result: 'hit' | 'miss'; version?: string }

describe('the cache trace (LOG_LEVEL=debug)', () => {
  it("names every cache a read looked in, hit or miss, at which version; the second read is the answer cache's hit", async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    await content(app.payload, { slug: 'traced-item', status: 'approved' })
    const traceOf = (requestId: string) => app.logs.find((l) => l.msg === 'request.caches' && l.requestId === requestId)?.lookups as Lookup[] | undefined

    const first = await app.request('GET', '/v1/content?limit=5', { headers: { 'X-Request-Id': 'trace-1' } })
    expect(first.status).toBe(200)
    const cold = traceOf('trace-1')!
    expect(cold.length).toBeGreaterThan(0)
    expect(cold[0]).toMatchObject({ cache: 'content_answers', result: 'miss', version: expect.any(String) })

    const second = await app.request('GET', '/v1/content?limit=5', { headers: { 'X-Request-Id': 'trace-2' } })
    expect(second.status).toBe(200)
    expect(traceOf('trace-2')).toEqual([{ cache: 'content_answers', result: 'hit', version: cold[0]!.version }])
    const line = app.logs.find((l) => l.msg === 'request.caches' && l.requestId === 'trace-2')!
    expect(line).toMatchObject({ level: 'debug', route: 'GET /api/v1/content' })
  })

  it.runIf(sqlite)('a search names each layer it looked in with the version it looked at: the answer, the orders, the corpus, the words, the rows', async () => {
    const app = await testApp()
    await content(app.payload, { slug: 'traced-search', title: 'Traced amber lantern', status: 'approved' })
    const traceOf = (requestId: string) => app.logs.find((l) => l.msg === 'request.caches' && l.requestId === requestId)?.lookups as Lookup[] | undefined
    // Asked twice: the second ask is the one the word and group caches keep from.
    for (const id of ['search-1', 'search-2']) expect((await app.request('GET', '/v1/content?q=amber%20lantern', { headers: { 'X-Request-Id': id } })).status).toBe(200)
    await content(app.payload, { slug: 'traced-search-2', title: 'Another amber lantern', status: 'approved' })
    expect((await app.request('GET', '/v1/content?q=amber%20lantern', { headers: { 'X-Request-Id': 'search-3' } })).status).toBe(200)
    const lookups = ['search-1', 'search-2', 'search-3'].flatMap((id) => traceOf(id) ?? [])
    const caches = new Set(lookups.map((l) => l.cache))
    for (const cache of ['search_answers', 'search_orders', 'search_corpus_built', 'search_terms', 'row_records']) expect(caches, cache).toContain(cache)
    // Every lookup carries its version.
    expect(lookups.filter((l) => l.version === undefined)).toEqual([])
  })
})
