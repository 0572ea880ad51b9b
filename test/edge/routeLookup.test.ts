/**
 * The dispatcher finds a path without parameters by one lookup: the answer must be the one the
 * route list's first match gives (an earlier pattern that also matches the path wins), for
 * HEAD and for trailing slashes alike.
 */
import { expect, it } from 'vitest'

import { createDispatcher } from '../../src/edge/router'
import { defineRoute, type ApiRequest } from '../../src/edge/route'

const answering = (name: string) => async () => ({ data: { name } })

const routes = [
  defineRoute({ method: 'get', path: '/things/:id', handler: answering('by id'), responses: { data: {} as never } }),
  defineRoute({ method: 'get', path: '/things/new', handler: answering('shadowed'), responses: { data: {} as never } }),
  defineRoute({ method: 'get', path: '/list', handler: answering('list'), responses: { data: {} as never } }),
  defineRoute({ method: 'post', path: '/list', handler: answering('list post'), responses: { data: {} as never } }),
]

const request = (method: string, path: string): ApiRequest => ({
  payload: {} as never,
  method,
  path: `/v1${path}`,
  search: '',
  origin: 'http://localhost',
  headers: { get: () => null },
  text: async () => '',
})

const nameOf = async (method: string, path: string) => {
  const result = await createDispatcher(routes)(request(method, path))
  const body = JSON.parse(String(result.body)) as { data?: { name: string }; error?: { code: string } }
  return { status: result.status, name: body.data?.name ?? body.error?.code }
}

it('a path without parameters answers as the first matching route, by method, with trailing slashes ignored', async () => {
  expect(await nameOf('GET', '/list')).toEqual({ status: 200, name: 'list' })
  expect(await nameOf('GET', '/list//')).toEqual({ status: 200, name: 'list' })
  expect(await nameOf('POST', '/list')).toEqual({ status: 200, name: 'list post' })
  // `/things/new` is declared, but `/things/:id` comes first and matches it.
  expect(await nameOf('GET', '/things/new')).toEqual({ status: 200, name: 'by id' })
  expect(await nameOf('DELETE', '/list')).toEqual({ status: 405, name: 'route.method_not_allowed' })
  expect(await nameOf('GET', '/nothing')).toEqual({ status: 404, name: 'route.not_found' })
})

it('HEAD answers as GET without a body, with its length', async () => {
  const dispatch = createDispatcher(routes)
  const get = await dispatch(request('GET', '/list'))
  const head = await dispatch(request('HEAD', '/list/'))
  expect(head.status).toBe(200)
  expect(head.body).toBeNull()
  expect(head.headers['Content-Length']).toBe(String(Buffer.byteLength(String(get.body))))
})
