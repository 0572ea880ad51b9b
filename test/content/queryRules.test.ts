/**
 * Every rule of every list query, through the real HTTP server: the exact status, code,
 * message and details each bad query answers, which code wins when several rules fail
 * (pagination, then sort, then q, then the field list), and the order of the field list.
 * The queries are defined once, as zod schemas (endpoints/queries.ts); this file is what a
 * client relies on, whatever parses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { getConfig, resetConfig } from '../../src/platform/config'
import { tokenFor } from './helpers'
import { startHttpServer, type RunningServer } from '../support/httpServer'
import { testApp } from '../support/app'

let server: RunningServer
let userManager: string
let moderator: string
let member: string

beforeAll(async () => {
  const app = await testApp()
  server = await startHttpServer()
  const user = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
  userManager = await tokenFor(['user.manage'], String(user.id))
  moderator = await tokenFor(['content.moderate'], String(user.id))
  member = await tokenFor([], String(user.id))
}, 120_000)
afterAll(() => server?.close())

type Answer = { status: number; body: any }

async function get(path: string, token?: string): Promise<Answer> {
  const res = await fetch(`${server.origin}/api/v1${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
  return { status: res.status, body: await res.json() }
}

/** The answer's error, exactly: 400 and { code, message, details }. */
async function refusal(path: string, token?: string) {
  const res = await get(path, token)
  expect(res.status, path).toBe(400)
  expect(res.body.success, path).toBe(false)
  expect(Object.keys(res.body.error).sort(), path).toEqual(['code', 'details', 'message'])
  return res.body.error as { code: string; message: string; details: unknown }
}

const invalid = (details: unknown[]) => ({ code: 'validation.failed', message: 'The request is not valid.', details })

const pageRange = (field: 'offset' | 'limit', value: string) => {
  const { maxLimit, maxOffset } = getConfig().pagination
  const max = field === 'offset' ? maxOffset : maxLimit
  return { code: 'pagination.invalid', message: `${field} must be an integer from 0 to ${max}.`, details: [{ field, constraint: 'range', value, min: 0, max }] }
}

describe('GET /content: one code per rule', () => {
  it('pagination.invalid names the first bad bound, whatever else is wrong', async () => {
    expect(await refusal('/content?offset=-1')).toEqual(pageRange('offset', '-1'))
    expect(await refusal('/content?offset=1e3&limit=999999')).toEqual(pageRange('offset', '1e3'))
    expect(await refusal('/content?limit=%2012')).toEqual(pageRange('limit', ' 12'))
    expect(await refusal('/content?limit=0x10')).toEqual(pageRange('limit', '0x10'))
    expect(await refusal('/content?limit=1.0&sort=trending&q=a&period=1y')).toEqual(pageRange('limit', '1.0'))
  })

  it('sort.unsupported for a reserved sort, before q and the field list', async () => {
    for (const sort of ['trending', 'usage']) {
      expect(await refusal(`/content?sort=${sort}&q=a&period=1y`)).toEqual({
        code: 'sort.unsupported',
        message: `sort=${sort} is reserved and not supported yet.`,
        details: { sort, supported: ['newest', 'oldest', 'alpha'] },
      })
    }
  })

  it('query.too_short for q under 2 characters (code points, after trimming), before the field list', async () => {
    const short = (value: string) => ({ code: 'query.too_short', message: 'q must be at least 2 characters.', details: { field: 'q', min: 2, value } })
    expect(await refusal('/content?q=a&sort=random&tags=NOPE')).toEqual(short('a'))
    expect(await refusal('/content?q=%20%20a%20')).toEqual(short('a'))
    expect(await refusal(`/content?q=${encodeURIComponent('😀')}`)).toEqual(short('😀'))
    expect(await refusal('/content?q=%01')).toEqual(short('\u0001'))
  })

  it('validation.failed lists every other problem, in the order of the parameters', async () => {
    const qs = 'q=a%01b&sort=random&period=1y&status=bogus&estimate=maybe&tags=ok,NOPE&platform=Bad&group=Bad_Slug&channel=Web&url=javascript:alert(1)'
    expect(await refusal(`/content?${qs}`)).toEqual(
      invalid([
        { field: 'q', constraint: 'control_characters', value: 'a\u0001b' },
        { field: 'sort', constraint: 'enum', value: 'random' },
        { field: 'period', constraint: 'enum', value: '1y' },
        { field: 'status', constraint: 'enum', value: 'bogus' },
        { field: 'estimate', constraint: 'enum', value: 'maybe' },
        { field: 'tags', constraint: 'pattern', value: 'NOPE' },
        { field: 'platform', constraint: 'pattern', value: 'Bad' },
        { field: 'group', constraint: 'pattern', value: 'Bad_Slug' },
        { field: 'channel', constraint: 'pattern', value: 'Web' },
        { field: 'url', constraint: 'url', value: 'javascript:alert(1)' },
      ]),
    )
  })

  it('channel without group: requires_group (no value) right after the channel, before url', async () => {
    expect(await refusal('/content?url=ftp://x&channel=%20Web%20')).toEqual(
      invalid([
        { field: 'channel', constraint: 'pattern', value: 'Web' },
        { field: 'channel', constraint: 'requires_group' },
        { field: 'url', constraint: 'url', value: 'ftp://x' },
      ]),
    )
    // A group that is itself malformed still counts as given.
    expect(await refusal('/content?group=Bad&channel=web')).toEqual(invalid([{ field: 'group', constraint: 'pattern', value: 'Bad' }]))
  })

  it('empty values: sort, period, status, estimate and url are refused; q, tags, platform, group and channel mean no filter', async () => {
    expect(await refusal('/content?sort=&period=&status=&estimate=&url=')).toEqual(
      invalid([
        { field: 'sort', constraint: 'enum', value: '' },
        { field: 'period', constraint: 'enum', value: '' },
        { field: 'status', constraint: 'enum', value: '' },
        { field: 'estimate', constraint: 'enum', value: '' },
        { field: 'url', constraint: 'url', value: '' },
      ]),
    )
    const none = await get('/content?q=%20&tags=,%20,&platform=&group=%20&channel=')
    expect(none.status).toBe(200)
    expect(none.body.pagination).toEqual({ offset: 0, limit: 30, total: 0, hasMore: false })
  })

  it('enum values are taken as sent, not trimmed', async () => {
    expect(await refusal('/content?sort=%20newest&status=approved%20')).toEqual(
      invalid([
        { field: 'sort', constraint: 'enum', value: ' newest' },
        { field: 'status', constraint: 'enum', value: 'approved ' },
      ]),
    )
  })

  it('names an object inherits are no period or status (period=toString was a 500)', async () => {
    expect(await refusal('/content?period=toString')).toEqual(invalid([{ field: 'period', constraint: 'enum', value: 'toString' }]))
    expect(await refusal('/content?period=__proto__&status=constructor')).toEqual(
      invalid([
        { field: 'period', constraint: 'enum', value: '__proto__' },
        { field: 'status', constraint: 'enum', value: 'constructor' },
      ]),
    )
  })

  it('lists: over 50 distinct slugs is max (the raw value), the list refused whole, its values unexamined; duplicates count once', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `t${i}`)
    expect(await refusal(`/content?tags=${[...many, 'BAD'].join(',')}`)).toEqual(
      invalid([{ field: 'tags', constraint: 'max', value: [...many, 'BAD'].join(',').slice(0, 200) }]),
    )
    // Within 50, each bad value is named.
    expect(await refusal('/content?tags=t1,BAD')).toEqual(invalid([{ field: 'tags', constraint: 'pattern', value: 'BAD' }]))
    const fifty = Array.from({ length: 50 }, (_, i) => `p${i}`)
    expect((await get(`/content?platform=${[...fifty, ...fifty].join(',')}`)).status).toBe(200)
  })

  it('q over 200 characters is max, its echo cut to 200', async () => {
    expect(await refusal(`/content?q=${'x'.repeat(201)}`)).toEqual(invalid([{ field: 'q', constraint: 'max', value: 'x'.repeat(200) }]))
    expect((await get(`/content?q=${'😀'.repeat(100)}`)).status).toBe(200)
  })

  it('validation comes before the permission check of status', async () => {
    expect((await get('/content?status=pending')).status).toBe(403)
    expect(await refusal('/content?status=pending&period=1y')).toEqual(invalid([{ field: 'period', constraint: 'enum', value: '1y' }]))
    expect((await get('/content?status=all&estimate=true&period=7d&sort=alpha', moderator)).status).toBe(200)
  })

  it('a repeated parameter: its first value counts, the rest are ignored; unknown parameters are ignored', async () => {
    const first = await get('/content?limit=1&limit=2&limit=abc')
    expect(first.status).toBe(200)
    expect(first.body.pagination.limit).toBe(1)
    expect(await refusal('/content?limit=abc&limit=1')).toEqual(pageRange('limit', 'abc'))
    expect((await get('/content?page=0&depth=1e309&where[or][0][id][exists]=true&status[]=all')).status).toBe(200)
  })
})

describe('the pagination bounds are the configuration of the moment', () => {
  it('PAGINATION_MAX_LIMIT and PAGINATION_DEFAULT_LIMIT changed at run time apply to the next request', async () => {
    const saved = { max: process.env.PAGINATION_MAX_LIMIT, fallback: process.env.PAGINATION_DEFAULT_LIMIT }
    const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value))
    try {
      process.env.PAGINATION_MAX_LIMIT = '5'
      process.env.PAGINATION_DEFAULT_LIMIT = '3'
      resetConfig()
      expect(await refusal('/content?limit=6')).toEqual(pageRange('limit', '6'))
      expect((await refusal('/content?limit=6')).details).toEqual([{ field: 'limit', constraint: 'range', value: '6', min: 0, max: 5 }])
      const page = await get('/content')
      expect(page.status).toBe(200)
      expect(page.body.pagination.limit).toBe(3)
    } finally {
      restore('PAGINATION_MAX_LIMIT', saved.max)
      restore('PAGINATION_DEFAULT_LIMIT', saved.fallback)
      resetConfig()
    }
    expect((await get('/content?limit=6')).status).toBe(200)
  })
})

describe('the other lists', () => {
  it('/tags: pagination first; then control characters, then the rest; empty q is no filter', async () => {
    expect(await refusal('/tags?limit=-1&q=%01')).toEqual(pageRange('limit', '-1'))
    expect(await refusal('/tags?facet=%20&q=%01')).toEqual(
      invalid([
        { field: 'q', constraint: 'control_characters', value: '\u0001' },
        { field: 'facet', constraint: 'min', value: ' ' },
      ]),
    )
    expect(await refusal(`/tags?q=${'x'.repeat(65)}&facet=${'f'.repeat(65)}`)).toEqual(
      invalid([
        { field: 'facet', constraint: 'max', value: 'f'.repeat(65) },
        { field: 'q', constraint: 'max', value: 'x'.repeat(65) },
      ]),
    )
    expect((await get('/tags?q=%20%20&where=%00')).status).toBe(200)
  })

  it('/users and /auth/me/submissions: pagination', async () => {
    expect(await refusal('/users?offset=x&limit=x', userManager)).toEqual(pageRange('offset', 'x'))
    expect(await refusal('/auth/me/submissions?limit=', member)).toEqual(pageRange('limit', ''))
    expect((await get('/auth/me/submissions?offset=0&limit=0&q=a', member)).status).toBe(200)
  })

  it('/moderation/events: pagination first, then each filter (trimmed), in order', async () => {
    expect(await refusal('/moderation/events?offset=-1&action=nope', moderator)).toEqual(pageRange('offset', '-1'))
    expect(await refusal('/moderation/events?to=2024-13-45&from=soon&target=a%20b&actor=xyz&action=%20nope%20', moderator)).toEqual(
      invalid([
        { field: 'action', constraint: 'enum', value: 'nope' },
        { field: 'actor', constraint: 'pattern', value: 'xyz' },
        { field: 'target', constraint: 'pattern', value: 'a b' },
        { field: 'from', constraint: 'type', value: 'soon' },
        { field: 'to', constraint: 'type', value: '2024-13-45' },
      ]),
    )
    expect(await refusal(`/moderation/events?target=${'a'.repeat(201)}`, moderator)).toEqual(
      invalid([{ field: 'target', constraint: 'pattern', value: 'a'.repeat(200) }]),
    )
    const ok = await get(`/moderation/events?action=%20approve%20&actor=${'A'.repeat(24)}&target=a.b-c_d&from=2024-01-01&to=2024-01-02T00:00:00Z&limit=0`, moderator)
    expect(ok.status).toBe(200)
    expect((await get('/moderation/events?action=&actor=%20&target=&from=&to=', moderator)).status).toBe(200)
  })
})
