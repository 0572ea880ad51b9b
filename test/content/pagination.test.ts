/**
 * One pagination rule (src/platform/pagination.ts) for every paginated list: /content, /tags and
 * /users take the same offset and limit bounds, refuse the same values with the same
 * 400 pagination.invalid and details, and read limit=0 as the count.
 */
import { describe, expect, it } from 'vitest'

import { getConfig } from '../../src/platform/config'
import { taxonomy, tokenFor } from './helpers'
import { testApp } from '../support/app'

const LISTS = ['/v1/content', '/v1/tags', '/v1/users'] as const

describe('pagination is the same on every list', () => {
  it('the same refusals, codes and details on /content, /tags and /users', async () => {
    const app = await testApp()
    await taxonomy(app.payload)
    const user = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs[0]!
    const token = await tokenFor(['user.manage'], String(user.id))
    const { maxLimit, maxOffset } = getConfig().pagination
    const bad: [string, Record<string, unknown>][] = [
      ['offset=-1', { field: 'offset', constraint: 'range', value: '-1', min: 0, max: maxOffset }],
      [`offset=${maxOffset + 1}`, { field: 'offset', constraint: 'range', value: String(maxOffset + 1), min: 0, max: maxOffset }],
      ['offset=abc', { field: 'offset', constraint: 'range', value: 'abc', min: 0, max: maxOffset }],
      [`limit=${maxLimit + 1}`, { field: 'limit', constraint: 'range', value: String(maxLimit + 1), min: 0, max: maxLimit }],
      ['limit=-1', { field: 'limit', constraint: 'range', value: '-1', min: 0, max: maxLimit }],
      ['limit=1.5', { field: 'limit', constraint: 'range', value: '1.5', min: 0, max: maxLimit }],
      ['limit=', { field: 'limit', constraint: 'range', value: '', min: 0, max: maxLimit }],
    ]
    for (const list of LISTS) {
      for (const [qs, detail] of bad) {
        const res = await app.request('GET', `${list}?${qs}`, { token })
        expect(res.status, `${list}?${qs}`).toBe(400)
        expect(res.body.error.code, `${list}?${qs}`).toBe('pagination.invalid')
        expect(res.body.error.details, `${list}?${qs}`).toEqual([detail])
      }
      const edge = await app.request('GET', `${list}?offset=${maxOffset}&limit=${maxLimit}`, { token })
      expect(edge.status, list).toBe(200)
      expect(edge.body.pagination).toMatchObject({ offset: maxOffset, limit: maxLimit, hasMore: false })
      const count = await app.request('GET', `${list}?limit=0`, { token })
      expect(count.status, list).toBe(200)
      expect(count.body.data, list).toEqual([])
      expect(count.body.pagination.limit, list).toBe(0)
      const one = await app.request('GET', `${list}?limit=1`, { token })
      expect(count.body.pagination.total, list).toBe(one.body.pagination.total)
      expect(count.body.pagination.hasMore, list).toBe(count.body.pagination.total > 0)
    }
  })
})
