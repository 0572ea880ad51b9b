/**
 * Requests Payload's own REST once answered with a 500 are 4xx: the versions routes of a
 * collection without versions (404), a version that does not exist (404), `verify` where verification is off (404), an
 * upload whose file is gone (404), and `limit`/`page`/`depth` that are not small whole numbers
 * (400). A request that is fine still reaches Payload.
 */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

import { renderThumbnail } from '../../src/platform/media/thumbnail'
import { ADMIN, consoleCookie } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let cookie: string

beforeAll(async () => {
  app = await testApp()
  cookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
})

const call = (method: string, path: string) => app.request(method, path, { headers: { cookie } })

describe('Payload REST: 4xx, never 5xx', () => {
  it.each([
    ['GET', '/users/versions', 404],
    ['GET', '/roles/versions/65a1b2c3d4e5f60718293a4b', 404],
    ['GET', '/media/versions', 404],
    ['POST', '/users/verify/anything', 404],
    ['GET', '/media/file/nothing-here.png', 404],
    ['GET', '/tags?limit=1e309', 400],
    ['GET', '/tags?limit=-1', 400],
    ['GET', '/tags?page=1e309', 400],
    ['GET', '/tags?page=0', 400],
    ['GET', '/tags?depth=1e309', 400],
    ['GET', '/content?limit=99999999999', 400],
  ])('%s %s → %i', async (method, path, status) => {
    const res = await call(method, path)
    expect(res.status, res.text).toBe(status)
    expect(res.body.errors[0].message).toMatch(/\S/)
    expect(res.body.error.code).toBe(status === 404 ? 'route.not_found' : 'validation.failed')
  })

  it("a version that does not exist: 404 (Payload's own answer), never a 5xx", async () => {
    const res = await call('GET', '/content/versions/65a1b2c3d4e5f60718293a4b')
    expect(res.status, res.text).toBe(404)
    expect(res.body.errors[0].message).toMatch(/\S/)
  })

  it('a media record whose file is gone: its file answers 404, the record still reads', async () => {
    const png = await renderThumbnail({ title: 'gone', color: '#336699' })
    const media = await app.payload.create({ collection: 'media', data: { alt: 'gone' }, file: { data: png, mimetype: 'image/png', name: 'gone.png', size: png.length }, overrideAccess: true })
    expect((await call('GET', `/media/file/${media.filename}`)).status).toBe(200)
    rmSync(path.resolve(process.env.MEDIA_DIR!, String(media.filename)))
    expect((await call('GET', `/media/file/${media.filename}`)).status).toBe(404)
    expect((await call('GET', `/media/${media.id}`)).status).toBe(200)
  })

  it('well-formed requests still reach Payload', async () => {
    const res = await call('GET', '/tags?limit=5&page=1&depth=0')
    expect(res.status, res.text).toBe(200)
    expect(res.body.limit).toBe(5)
  })
})

describe('where operators a field cannot take (issue 52.5): 400 naming the field, for every caller', () => {
  it.each([
    ['/media', 'where[alt][near]=1,2,3', 'where.alt', 'operator'],
    ['/media', 'where[alt][within][type]=Polygon', 'where.alt', 'operator'],
    ['/media', 'where[alt][intersects][type]=Point', 'where.alt', 'operator'],
    ['/media', 'where[alt][like][0]=a', 'where.alt', 'type'],
    ['/media', 'where[alt][equals][x]=1', 'where.alt', 'type'],
    ['/media', 'where[createdAt][near]=1,2', 'where.createdAt', 'operator'],
    ['/media', 'where[alt][nope]=1', 'where.alt', 'operator'],
    ['/content', 'where[title][near]=1,2', 'where.title', 'operator'],
    ['/tags', 'where[label][equals][x]=1', 'where.label', 'type'],
  ])('GET %s?%s: 400, %s (%s)', async (path, query, field, constraint) => {
    const app = await testApp()
    const admin = await consoleCookie(app, ADMIN.email, ADMIN.password)
    for (const headers of [{}, { cookie: admin }] as Record<string, string>[]) {
      const answer = await app.request('GET', `${path}?${query}`, { headers })
      expect(answer.status, answer.text).toBe(400)
      expect(answer.body.error).toMatchObject({ code: 'validation.failed', details: [{ field, constraint }] })
    }
  })
})
