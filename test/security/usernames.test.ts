/**
 * One username rule on every route: the console (Payload REST) used to accept names the API
 * refuses: a case variant of an existing name (`Admin` beside `admin`) and `UPPER CASE!`.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { normalizeUsername, usernameProblem } from '../../src/auth/usernames'
import { ADMIN, consoleCookie, login } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let adminCookie: string
let adminToken: string

beforeAll(async () => {
  app = await testApp()
  adminCookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
  adminToken = (await login(app, ADMIN.email, ADMIN.password)).accessToken
  await app.request('POST', '/v1/users', { body: { email: 'taken@example.com', username: 'taken.name', password: 'a-long-password-1' }, token: adminToken })
})

const consoleCreate = (username: string, n: number) =>
  app.request('POST', '/users', { body: { email: `console${n}@example.com`, username, password: 'a-long-password-1' }, headers: { cookie: adminCookie } })
const apiCreate = (username: string, n: number) =>
  app.request('POST', '/v1/users', { body: { email: `api${n}@example.com`, username, password: 'a-long-password-1' }, token: adminToken })

describe('the same rule on the API and in the console', () => {
  it.each([
    ['UPPER CASE!', 1],
    ['x', 2],
    ['spaces in it', 3],
    ['Taken.Name', 4],
  ])('%s: refused on both routes, nothing created', async (username, n) => {
    const before = await app.payload.count({ collection: 'users' })
    const viaConsole = await consoleCreate(username, n)
    expect(viaConsole.status, viaConsole.text).toBe(400)
    expect(viaConsole.body.errors[0].data.errors.map((e: { path: string }) => e.path)).toEqual(['username'])
    const viaApi = await apiCreate(username, n)
    expect([400, 409]).toContain(viaApi.status)
    expect(await app.payload.count({ collection: 'users' })).toEqual(before)
  })

  it('a valid name in capitals is stored lower-cased by both', async () => {
    const viaConsole = await consoleCreate('  Console.Person ', 10)
    expect(viaConsole.status, viaConsole.text).toBe(201)
    expect(viaConsole.body.doc.username).toBe('console.person')
    const viaApi = await apiCreate('Api.Person', 11)
    expect(viaApi.status, viaApi.text).toBe(201)
    expect(viaApi.body.data.username).toBe('api.person')
  })

  it('the rule itself', () => {
    expect(normalizeUsername('  MiXed_Case-1 ')).toBe('mixed_case-1')
    expect(usernameProblem('ok.name')).toBeNull()
    expect(usernameProblem('no')).toMatch(/3 to/)
    expect(usernameProblem('upper case!')).not.toBeNull()
  })
})
