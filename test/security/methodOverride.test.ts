/**
 * Payload's method-override reads (`POST` with `X-Payload-HTTP-Method-Override: GET` and the query
 * as a form body: how its admin panel loads relationship options and filtered lists) are the GET
 * they stand for: answered as the GET is, with its access rules and limits (src/edge/payloadRestGuard
 * turns them into that GET before any check). They were refused with 400 ("must be JSON"), which
 * left every relationship field of the content edit view unable to load.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { ADMIN, consoleCookie, createUser } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let admin: string
let tagger: string

beforeAll(async () => {
  app = await testApp()
  admin = await consoleCookie(app, ADMIN.email, ADMIN.password)
  const role = await app.payload.create({ collection: 'roles', data: { name: 'override-tagger', permissions: ['tag.manage'] }, overrideAccess: true })
  const user = await createUser(app, [String(role.id)])
  tagger = await consoleCookie(app, user.email, user.password)
}, 120_000)

const read = (path: string, query: string, cookie?: string) =>
  app.request('POST', path, {
    rawBody: query,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-payload-http-method-override': 'GET', ...(cookie ? { cookie } : {}) },
  })

describe('method-override reads are the GET they stand for', () => {
  it.each([
    ['/tags', 'depth=0&limit=3&sort=label'],
    ['/groups', 'depth=0&limit=10&where[isActive][equals]=true'],
    ['/users', 'depth=0&limit=5&where[or][0][username][like]=ad'],
    ['/media', 'depth=0&limit=5'],
  ])('POST %s with %s: the same answer as the GET', async (path, query) => {
    const overridden = await read(path, query, admin)
    const got = await app.request('GET', `${path}?${query}`, { headers: { cookie: admin } })
    expect(overridden.status).toBe(200)
    expect(overridden.body).toEqual(got.body)
  })

  it.each([
    ['/tags', 'limit=1e309', 'limit'],
    ['/content', 'where[createdAt][equals]=nope', 'where.createdAt'],
    ['/content', 'sort=submittedBy.hash', 'sort'],
  ])('POST %s with %s: the GET’s 400, naming %s', async (path, query, field) => {
    const answer = await read(path, query, admin)
    expect(answer.status).toBe(400)
    expect(answer.body.error.details[0].field).toBe(field)
  })

  it('the GET’s access rules: the same status and answer for anonymous and for a tag.manage holder, path by path', async () => {
    for (const [path, query, cookie] of [
      ['/content', 'limit=1', undefined],
      ['/users', 'limit=5&depth=0', tagger],
      ['/tag-renames', 'where[actor.username][equals]=admin', tagger],
      ['/tag-renames', 'sort=actor.passwordHash', tagger],
      ['/roles', 'limit=1', tagger],
    ] as [string, string, string | undefined][]) {
      const overridden = await read(path, query, cookie)
      const got = await app.request('GET', `${path}?${query}`, { headers: cookie ? { cookie } : {} })
      // Everything but the request's own id.
      const same = (a: { status: number; body: any }) => ({ path, query, status: a.status, body: { ...a.body, meta: undefined } })
      expect(same(overridden)).toEqual(same(got))
    }
  })
})
