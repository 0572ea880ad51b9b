/**
 * One freshness mechanism: every cache keys on its domain's generation (src/db/freshness/generations),
 * moved by the engine's change feed. For each domain (content, taxonomy, branding) and each
 * write path (Payload's Local API with its hooks, the console's REST, a raw service path,
 * another process on the same database, a raw write outside the service's write paths), a
 * cached read is warmed first; a write of this process is visible on the very next read, a
 * write from outside within the feed's bound, with no invalidation call anywhere.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../src/platform/config'
import { generation } from '../src/db/freshness'
import type { Domain } from '../src/db/freshness'
import { registry } from '../src/platform/metrics'
import { connection, sqliteFileOf } from '../src/db/sqlite/connection'
import { freshIp } from './auth/helpers'
import { content, taxonomy, tokenFor } from './content/helpers'
import { testApp, type TestApp } from './support/app'
import { crossProcessBoundMs, onMongo, ownWritesEchoed } from './support/crossProcess'
import { updateInOtherProcess } from './support/otherProcess'

const sqlite = !onMongo()

let app: TestApp
let cookie: string
let moderator: string
let submitter: string
let t: Awaited<ReturnType<typeof taxonomy>>

beforeAll(async () => {
  app = await testApp()
  t = await taxonomy(app.payload)
  const admin = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
  moderator = await tokenFor(['content.moderate', 'content.approve', 'tag.manage'], String(admin.id))
  submitter = await tokenFor([], String(admin.id))
  const res = await app.request('POST', '/users/login', { body: { email: 'admin@example.com', password: 'admin-password-123' }, headers: freshIp() })
  expect(res.status).toBe(200)
  cookie = `payload-token=${/payload-token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`
}, 120_000)

/** How soon a write from outside this process's write paths must show (SQLite's feed polls every 10 ms; MongoDB's is its change stream: ./support/crossProcess). */
const OUTSIDE_BOUND_MS = crossProcessBoundMs()

/**
 * Reads twice (the second is served from the cache), writes, and returns [before, after]. A
 * write of this process must show on the very next read; one from `outside` (another process,
 * raw SQL on another connection) within OUTSIDE_BOUND_MS, read again until then.
 */
async function aroundWrite<T>(read: () => Promise<T>, write: () => Promise<unknown> | unknown, outside = false): Promise<[T, T]> {
  const before = await read()
  expect(await read()).toEqual(before)
  await write()
  let after = await read()
  const deadline = Date.now() + OUTSIDE_BOUND_MS
  while (outside && JSON.stringify(after) === JSON.stringify(before) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5))
    after = await read()
  }
  return [before, after]
}

describe('content: the list total (page, count and word-score caches) follows every write', () => {
  const total = async (query: string) => {
    const res = await app.request('GET', `/v1/content?${query}`)
    expect(res.status).toBe(200)
    return res.body.pagination.total as number
  }

  it('Payload Local API (hooks as they are)', async () => {
    const item = await content(app.payload, { title: 'A plain title' })
    const [before, after] = await aroundWrite(
      () => total('q=quokka'),
      () => app.payload.update({ collection: 'content', id: item.id, data: { title: 'Quokka spotted' }, overrideAccess: true }),
    )
    expect([before, after]).toEqual([0, 1])
  })

  it("the console's REST", async () => {
    const item = await content(app.payload, { title: 'Another plain title' })
    const [before, after] = await aroundWrite(
      () => total('q=wombat'),
      async () => {
        const res = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie }, body: { title: 'Wombat burrows' } })
        expect(res.status, res.text).toBe(200)
      },
    )
    expect([before, after]).toEqual([0, 1])
  })

  it('a raw service path: the moderation transition', async () => {
    const submitted = await app.request('POST', '/v1/content/submit', {
      token: submitter,
      body: { title: 'Dingo tracks', url: 'https://example.com/dingo' },
    })
    expect(submitted.status, submitted.text).toBe(201)
    const [before, after] = await aroundWrite(
      () => total('q=dingo'),
      async () => {
        const res = await app.request('POST', `/v1/content/${submitted.body.data.slug}/approve`, { token: moderator })
        expect(res.status, res.text).toBe(200)
      },
    )
    expect([before, after]).toEqual([0, 1])
  })

  it('a raw service path: the tag rename (raw SQL on SQLite)', async () => {
    await content(app.payload, { title: 'Tagged item', tagSlugs: ['talk'] })
    const [before, after] = await aroundWrite(
      () => total('tags=talk'),
      async () => {
        const res = await app.request('POST', '/v1/tags/talk/rename', { token: moderator, body: { newSlug: 'talks' } })
        expect(res.status, res.text).toBe(200)
      },
    )
    expect(before).toBeGreaterThan(0)
    expect(after).toBe(0)
    expect(await total('tags=talks')).toBe(before)
  })

  it('another process on the same database', async () => {
    const item = await content(app.payload, { title: 'Yet another plain title' })
    const [before, after] = await aroundWrite(
      () => total('q=numbat'),
      () => updateInOtherProcess({ collection: 'content', where: { slug: { equals: item.slug } }, data: { title: 'Numbat at dusk' } }),
      true,
    )
    expect([before, after]).toEqual([0, 1])
  }, 120_000)
})

describe("content: a write the public cannot see keeps the public view cached; moderators' views follow every write", () => {
  let staff: string
  let n = 0
  beforeAll(async () => {
    const admin = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
    staff = await tokenFor(['content.moderate', 'content.approve', 'content.delete'], String(admin.id))
  })

  const gen = (domain: Domain) => generation(app.payload, domain)
  const publicPage = async () => {
    const res = await app.request('GET', '/v1/content?limit=5')
    expect(res.status).toBe(200)
    return { data: res.body.data, pagination: res.body.pagination }
  }
  const pendingTotal = async (q = '') => {
    // A moderator who does not see deleted rows: a soft delete takes the item off the queue.
    const res = await app.request('GET', `/v1/content?status=pending&limit=1${q}`, { token: moderator })
    expect(res.status).toBe(200)
    return res.body.pagination.total as number
  }
  const publicHits = async () => {
    const line = (await registry.metrics()).split('\n').find((l) => l.startsWith('cache_lookups_total{cache="content_answers",result="hit"}'))
    return Number(line?.split(' ').at(-1) ?? 0)
  }
  const submit = async () => {
    n += 1
    const res = await app.request('POST', '/v1/content/submit', { token: submitter, body: { title: `Hidden write ${n}`, url: `https://example.com/hidden-write-${n}` } })
    expect(res.status, res.text).toBe(201)
    return res.body.data as { id: string; slug: string }
  }

  /**
   * Warms the public page and the moderators' total, writes, then: the public generation has
   * not moved and the public page is answered from the cache, unchanged; the moderators' view
   * moved and shows the write at once (or within the bound, for a write from outside).
   */
  async function hiddenWrite(write: () => Promise<unknown>, pendingQuery: string, expected: (before: number) => number, outside = false) {
    await ownWritesEchoed(app.payload, ['content', 'all_content'])
    const page = await publicPage()
    await publicPage()
    const total = await pendingTotal(pendingQuery)
    const [publicBefore, allBefore] = [gen('content'), gen('all_content')]
    await write()
    let after = await pendingTotal(pendingQuery)
    const deadline = Date.now() + OUTSIDE_BOUND_MS
    while (outside && after === total && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5))
      after = await pendingTotal(pendingQuery)
    }
    expect(after).toBe(expected(total))
    expect(gen('all_content')).not.toBe(allBefore)
    expect(gen('content')).toBe(publicBefore)
    const hits = await publicHits()
    expect(await publicPage()).toEqual(page)
    expect(await publicHits()).toBe(hits + 1)
  }

  it('a submission (the API)', async () => {
    await hiddenWrite(submit, '', (t) => t + 1)
  })

  it('a pending item made through Payload Local API (hooks as they are)', async () => {
    await hiddenWrite(() => content(app.payload, { status: 'pending', approvedAt: null, title: 'Hidden local item' }), '', (t) => t + 1)
  })

  it("an edit of a pending item in the console's REST", async () => {
    const item = await submit()
    await hiddenWrite(
      async () => {
        const res = await app.request('PATCH', `/content/${item.id}`, { headers: { cookie }, body: { title: 'Echidna quills' } })
        expect(res.status, res.text).toBe(200)
      },
      '&q=echidna',
      () => 1,
    )
  })

  it('a rejection', async () => {
    const item = await submit()
    await hiddenWrite(async () => {
      const res = await app.request('POST', `/v1/content/${item.slug}/reject`, { token: staff, body: { reason: 'Off topic' } })
      expect(res.status, res.text).toBe(200)
    }, '', (t) => t - 1)
  })

  it('a soft delete of a pending item', async () => {
    const item = await submit()
    await hiddenWrite(async () => {
      const res = await app.request('DELETE', `/v1/content/${item.slug}`, { token: staff })
      expect(res.status, res.text).toBe(200)
    }, '', (t) => t - 1)
  })

  it('another process edits a pending item', async () => {
    const item = await submit()
    await hiddenWrite(
      () => updateInOtherProcess({ collection: 'content', where: { slug: { equals: item.slug } }, data: { title: 'Bilby ears' } }),
      '&q=bilby',
      () => 1,
      true,
    )
  }, 120_000)

  it('an approval moves both: the public page shows the item at once', async () => {
    const item = await submit()
    await publicPage()
    const publicBefore = gen('content')
    const res = await app.request('POST', `/v1/content/${item.slug}/approve`, { token: staff })
    expect(res.status, res.text).toBe(200)
    expect(gen('content')).not.toBe(publicBefore)
    expect((await publicPage()).data[0].slug).toBe(item.slug)
  })
})

describe('content: a write that leaves every list as it was moves only its row: its answers and the pages that show it follow, every other public answer stays cached', () => {
  let staff: string
  let n = 0
  beforeAll(async () => {
    const admin = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
    staff = await tokenFor(['content.moderate', 'content.approve'], String(admin.id))
  })

  const gen = (domain: Domain) => generation(app.payload, domain)
  const hits = async (cache: string) => {
    const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`cache_lookups_total{cache="${cache}",result="hit"}`))
    return Number(line?.split(' ').at(-1) ?? 0)
  }
  const get = async (path: string) => {
    const res = await app.request('GET', `/v1${path}`)
    expect(res.status, `${path}: ${res.text}`).toBe(200)
    return res.body.data
  }
  /** A public item, the newest: on the first page, not on the second. */
  const newest = async () => {
    n += 1
    const doc = await content(app.payload, { title: `Row mark ${n}`, approvedAt: new Date(Date.now() + n * 1000).toISOString() })
    return { id: String(doc.id), slug: String(doc.slug) }
  }

  /**
   * Warms the first page (shows `item`), the second page and another item's answer (do not),
   * writes, then: the public generation stayed; the item's answer and the first page show the
   * write (at once, or within the bound from outside); the second page and the other item are
   * answered from the cache, unchanged.
   */
  async function rowWrite(item: { slug: string }, write: () => Promise<unknown>, changed: (dto: any) => boolean, outside = false) {
    await ownWritesEchoed(app.payload, ['content', 'all_content'])
    const other = (await get('/content?limit=2&offset=2'))[0].slug as string
    const [second, otherItem] = [await get('/content?limit=2&offset=2'), await get(`/content/${other}`)]
    await get(`/content/${item.slug}`)
    expect((await get('/content?limit=2'))[0].slug).toBe(item.slug)
    const publicBefore = gen('content')
    await write()
    const deadline = Date.now() + (outside ? OUTSIDE_BOUND_MS : 0)
    let [page, answer] = [await get('/content?limit=2'), await get(`/content/${item.slug}`)]
    while (!(changed(page[0]) && changed(answer)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5))
      ;[page, answer] = [await get('/content?limit=2'), await get(`/content/${item.slug}`)]
    }
    expect(changed(answer), JSON.stringify(answer)).toBe(true)
    expect(changed(page[0]), JSON.stringify(page[0])).toBe(true)
    expect(gen('content')).toBe(publicBefore)
    const [listHits, itemHits] = [await hits('content_answers'), await hits('content_item_answers')]
    expect(await get('/content?limit=2&offset=2')).toEqual(second)
    expect(await get(`/content/${other}`)).toEqual(otherItem)
    expect(await hits('content_answers')).toBe(listHits + 1)
    expect(await hits('content_item_answers')).toBe(itemHits + 1)
  }

  it("an approval's follow-up links the thumbnail (Payload Local API, hooks as they are)", async () => {
    const item = await newest()
    const { runFollowUp } = await import('../src/jobs/followUpTasks')
    await rowWrite(item, () => runFollowUp(app.payload, { contentId: item.id, kind: 'thumbnail' }), (dto) => typeof dto.thumbnailUrl === 'string')
  })

  it('another process links a thumbnail', async () => {
    const donor = await newest()
    const { runFollowUp } = await import('../src/jobs/followUpTasks')
    await runFollowUp(app.payload, { contentId: donor.id, kind: 'thumbnail' })
    const media = (await app.payload.findByID({ collection: 'content', id: donor.id, depth: 0, overrideAccess: true })).thumbnail
    const item = await newest()
    await rowWrite(
      item,
      () => updateInOtherProcess({ collection: 'content', where: { slug: { equals: item.slug } }, data: { thumbnail: String(media) } }),
      (dto) => typeof dto.thumbnailUrl === 'string',
      true,
    )
  }, 120_000)

  it.runIf(sqlite)('raw SQL on another connection sets a row\'s thumbnail URL', async () => {
    const item = await newest()
    await rowWrite(
      item,
      async () => {
        const { default: Database } = await import('libsql')
        const db = new Database(sqliteFileOf(getConfig().database.uri))
        db.prepare("UPDATE content SET thumbnail_url = '/api/media/file/raw-row-mark.png' WHERE id = ?").run(item.id)
        db.close()
      },
      (dto) => typeof dto.thumbnailUrl === 'string' && dto.thumbnailUrl.endsWith('raw-row-mark.png'),
      true,
    )
  })

  it("an approval moves the public lists, not another item's answer", async () => {
    const other = (await get('/content?limit=1'))[0].slug as string
    const answer = await get(`/content/${other}`)
    const res = await app.request('POST', '/v1/content/submit', { token: staff, body: { title: 'Row mark approval', url: 'https://example.com/row-mark-approval' } })
    expect(res.status, res.text).toBe(201)
    const publicBefore = gen('content')
    expect((await app.request('POST', `/v1/content/${res.body.data.slug}/approve`, { token: staff })).status).toBe(200)
    expect(gen('content')).not.toBe(publicBefore)
    expect((await get('/content?limit=20')).map((d: { slug: string }) => d.slug)).toContain(res.body.data.slug)
    const itemHits = await hits('content_item_answers')
    expect(await get(`/content/${other}`)).toEqual(answer)
    expect(await hits('content_item_answers')).toBe(itemHits + 1)
  })
})

describe('taxonomy: the catalog ETag follows every write', () => {
  const etag = async () => {
    const res = await app.request('GET', '/v1/catalog')
    expect(res.status).toBe(200)
    return res.headers.get('etag')!
  }
  const youtubeLabel = async () =>
    (await app.request('GET', '/v1/catalog')).body.data.platforms.find((p: { slug: string }) => p.slug === 'youtube').label

  it('Payload Local API (hooks as they are)', async () => {
    const [before, after] = await aroundWrite(etag, () =>
      app.payload.update({ collection: 'platforms', id: t.youtube.id, data: { label: 'YouTube (local)' }, overrideAccess: true }),
    )
    expect(after).not.toBe(before)
    expect(await youtubeLabel()).toBe('YouTube (local)')
  })

  it("the console's REST", async () => {
    const [before, after] = await aroundWrite(etag, async () => {
      const res = await app.request('PATCH', `/platforms/${t.youtube.id}`, { headers: { cookie }, body: { label: 'YouTube (console)' } })
      expect(res.status, res.text).toBe(200)
    })
    expect(after).not.toBe(before)
    expect(await youtubeLabel()).toBe('YouTube (console)')
  })

  it("the console's REST on a facet: the same hooks and colour check as the other taxonomy collections", async () => {
    const facet = (await app.payload.find({ collection: 'facets', where: { key: { equals: 'level' } }, overrideAccess: true })).docs[0]!
    const bad = await app.request('PATCH', `/facets/${facet.id}`, { headers: { cookie }, body: { color: 'red; background: url(x)' } })
    expect(bad.status).toBe(400)
    const [before, after] = await aroundWrite(etag, async () => {
      const res = await app.request('PATCH', `/facets/${facet.id}`, { headers: { cookie }, body: { color: '#123456' } })
      expect(res.status, res.text).toBe(200)
    })
    expect(after).not.toBe(before)
    const facets = (await app.request('GET', '/v1/catalog')).body.data.facets
    expect(facets.find((f: { key: string }) => f.key === 'level').color).toBe('#123456')
  })

  it('a raw service path: the tag rename', async () => {
    const [before, after] = await aroundWrite(etag, async () => {
      const res = await app.request('POST', '/v1/tags/sql/rename', { token: moderator, body: { newSlug: 'structured-query' } })
      expect(res.status, res.text).toBe(200)
    })
    expect(after).not.toBe(before)
  })

  it('another process on the same database', async () => {
    const [before, after] = await aroundWrite(etag, () =>
      updateInOtherProcess({ collection: 'platforms', where: { slug: { equals: 'youtube' } }, data: { label: 'YouTube (other)' } }),
      true,
    )
    expect(after).not.toBe(before)
    expect(await youtubeLabel()).toBe('YouTube (other)')
  }, 120_000)
})

describe('branding: the /meta ETag follows every write', () => {
  const meta = async () => {
    const res = await app.request('GET', '/v1/meta')
    expect(res.status).toBe(200)
    return { etag: res.headers.get('etag')!, tagline: res.body.data.tagline as string }
  }

  it('Payload Local API (hooks as they are)', async () => {
    const [before, after] = await aroundWrite(meta, () =>
      app.payload.updateGlobal({ slug: 'branding', data: { tagline: 'Local tagline' }, overrideAccess: true }),
    )
    expect(after.etag).not.toBe(before.etag)
    expect(after.tagline).toBe('Local tagline')
  })

  it("the console's REST", async () => {
    const [before, after] = await aroundWrite(meta, async () => {
      const res = await app.request('POST', '/globals/branding', { headers: { cookie }, body: { tagline: 'Console tagline' } })
      expect(res.status, res.text).toBe(200)
    })
    expect(after.etag).not.toBe(before.etag)
    expect(after.tagline).toBe('Console tagline')
  })

  it('the submissions switch (same cached record) closes submissions on the next request', async () => {
    await app.payload.updateGlobal({ slug: 'branding', data: { submissionsOpen: false }, overrideAccess: true })
    const closed = await app.request('POST', '/v1/content/submit', { token: submitter, body: { title: 'Closed', url: 'https://example.com/c' } })
    expect(closed.status).toBe(403)
    expect(closed.body.error.code).toBe('content.submissions_closed')
    await app.payload.updateGlobal({ slug: 'branding', data: { submissionsOpen: true }, overrideAccess: true })
  })

  it.runIf(sqlite)('a raw SQL write to the global (no Payload, no hook)', async () => {
    const [before, after] = await aroundWrite(meta, () => {
      connection(sqliteFileOf(getConfig().database.uri)).prepare('UPDATE branding SET tagline = ?').run('Raw tagline')
    }, true)
    expect(after.etag).not.toBe(before.etag)
    expect(after.tagline).toBe('Raw tagline')
  })

  it('another process on the same database', async () => {
    const [before, after] = await aroundWrite(meta, () => updateInOtherProcess({ global: 'branding', data: { tagline: 'Other tagline' } }), true)
    expect(after.etag).not.toBe(before.etag)
    expect(after.tagline).toBe('Other tagline')
  }, 120_000)
})
