/**
 * A hostile-input corpus against every route, through the production Node server (with
 * Payload's REST behind its guard, as Next's route serves it): bodies nested 3,000 deep, huge
 * numbers, NUL and control characters, lone surrogates, invalid UTF-8, duplicate keys, wrong
 * content types, empty and oversized bodies, over-long query strings, hostile query values,
 * odd methods and absolute-form targets. Not one answer may be a 5xx, and every /api/v1 error
 * is the envelope. The routes come from the route table and Payload's config, so a new route is
 * in the corpus without editing this file.
 */
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { routes } from '../../endpoints'
import { ADMIN, consoleCookie, login } from '../auth/helpers'
import { startHttpServer, type RunningServer } from '../support/httpServer'
import { testApp } from '../support/app'

let server: RunningServer
let port: number
let token: string
let cookie: string

type Answer = { status: number; text: string }

/** One exchange with exact bytes (invalid UTF-8 included). */
function send(method: string, path: string, opts: { headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body)
    const headers: Record<string, string | number> = { ...opts.headers, ...(body ? { 'Content-Length': body.length } : {}) }
    // A console write comes from the console's own origin (src/edge/crossOrigin), as a browser sends it.
    if (headers.cookie && !headers.origin && method !== 'GET') headers.origin = `http://127.0.0.1:${port}`
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(parts).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

function sendRaw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let out = ''
    socket.on('data', (d) => (out += d))
    socket.on('end', () => resolve(out))
    socket.on('error', reject)
    setTimeout(() => socket.end(), 3_000)
  })
}

const JSON_TYPE = 'application/json'
const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)
const BODIES: [string, Buffer | string, string][] = [
  ['nesting 3,000 deep', deep(3000), JSON_TYPE],
  ['arrays 3,000 deep', '['.repeat(3000) + ']'.repeat(3000), JSON_TYPE],
  ['huge numbers', '{"limit":1e309,"offset":18446744073709551616,"title":1e309,"displayOrder":-1e309}', JSON_TYPE],
  ['NUL and control characters', '{"title":"a\\u0000b\\u0007","email":"x\\u0000@example.com","label":"\\u001b[31m"}', JSON_TYPE],
  ['lone surrogates', '{"title":"\\ud800","slug":"\\udfff","name":"a\\ud83d"}', JSON_TYPE],
  ['invalid UTF-8 bytes', Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]), JSON_TYPE],
  ['duplicate keys', '{"title":"a","title":{"$ne":1},"password":"x","password":["y"]}', JSON_TYPE],
  ['not JSON', '{"title": ', JSON_TYPE],
  ['JSON of the wrong shape', '[1,2,3]', JSON_TYPE],
  ['a bare string', '"just a string"', JSON_TYPE],
  ['text/plain', '{"title":"x"}', 'text/plain'],
  ['form-urlencoded', 'title=x&url=https%3A%2F%2Fexample.com&where[or][0][id][exists]=true', 'application/x-www-form-urlencoded'],
  ['multipart garbage', '--x\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n' + deep(3000) + '\r\n--x--', 'multipart/form-data; boundary=x'],
  ['multipart with no boundary', 'garbage', 'multipart/form-data'],
  ['empty', '', JSON_TYPE],
  ['2 MB', `{"title":"${'x'.repeat(2 * 1024 * 1024)}"}`, JSON_TYPE],
]
const QUERIES = [
  'limit=1e309&offset=18446744073709551616',
  'limit=-1&offset=-5&page=0',
  'q=%00%01%1b&tags=%00',
  'q=%ED%A0%80&group=%C3%28',
  'q=' + 'a'.repeat(20_000),
  'sort=__proto__&status[]=all&status=approved',
  'where[or][0][id][exists]=true&where[and][0][password][like]=a&depth=1e309',
  'limit=9&limit=10&limit=abc',
  'url=javascript:alert(1)&estimate=maybe',
  // Point operators on fields that are no point, and objects where a value is compared (issue 52.5).
  'where[alt][near]=1,2,3&where[createdAt][near]=1,2',
  'where[alt][within][type]=Polygon&where[label][intersects][type]=Point',
  'where[alt][like][0]=a&where[title][equals][x]=1&where[slug][in][a][b]=c',
  'where={"createdAt":{"equals":"admin"}}',
  'where[title][exists][$ne]=1&where[nope][nope]=1',
]
const ODD_METHODS = ['PROPFIND', 'TRACE', 'CONNECT', 'FOO']

/** Every /api/v1 route of the table, its parameters filled with a plausible value. */
const v1Targets = routes.map((r) => ({ method: r.method.toUpperCase(), path: `/api/v1${r.path.replace(/:[a-zA-Z]+/g, 'x1')}` }))

let payloadTargets: { method: string; path: string }[] = []

beforeAll(async () => {
  server = await startHttpServer()
  port = Number(new URL(server.origin).port)
  const app = await testApp()
  token = (await login(app, ADMIN.email, ADMIN.password)).accessToken
  cookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
  const id = '65a1b2c3d4e5f60718293a4b'
  const collections = app.config.collections.map((c) => c.slug)
  payloadTargets = collections.flatMap((slug) => [
    { method: 'GET', path: `/api/${slug}` },
    { method: 'POST', path: `/api/${slug}` },
    { method: 'PATCH', path: `/api/${slug}/${id}` },
    { method: 'PATCH', path: `/api/${slug}?where[id][equals]=${id}` },
    { method: 'DELETE', path: `/api/${slug}/${id}` },
  ])
  for (const endpoints of Object.entries((await import('../../endpoints/console')).consoleEndpoints)) {
    const [slug, list] = endpoints
    for (const e of list) payloadTargets.push({ method: e.method.toUpperCase(), path: `/api/${slug}${e.path.replace(/:[a-zA-Z]+/g, id)}` })
  }
}, 120_000)
afterAll(() => server?.close())

let problems: string[] = []
beforeEach(() => {
  problems = []
})

function check(what: string, answer: Answer, v1: boolean) {
  if (answer.status >= 500) problems.push(`${what} → ${answer.status} ${answer.text.slice(0, 160)}`)
  if (v1 && answer.status >= 400) {
    let body: { success?: unknown; error?: { code?: unknown } } | undefined
    try {
      body = JSON.parse(answer.text)
    } catch {
      body = undefined
    }
    if (body?.success !== false || typeof body.error?.code !== 'string') problems.push(`${what} → ${answer.status}, not the envelope: ${answer.text.slice(0, 120)}`)
  }
}

describe('the hostile-input corpus: 0 answers of 5xx', () => {
  it('/api/v1: every route × every body, query and odd method', async () => {
    for (const t of v1Targets) {
      const auth = { Authorization: `Bearer ${token}` }
      for (const [name, body, type] of BODIES) {
        if (t.method === 'GET' || t.method === 'DELETE') continue
        check(`${t.method} ${t.path} [${name}]`, await send(t.method, t.path, { headers: { ...auth, 'Content-Type': type }, body }), true)
      }
      for (const q of QUERIES) check(`${t.method} ${t.path}?${q.slice(0, 40)}`, await send(t.method, `${t.path}?${q}`, { headers: auth }), true)
    }
    // Raw: Node's client treats a CONNECT answer as a tunnel, not a response.
    for (const m of ODD_METHODS) {
      const target = m === 'CONNECT' ? '127.0.0.1:443' : '/api/v1/content'
      const answer = await sendRaw(`${m} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])
      check(`${m} ${target}`, { status: Number.isNaN(status) ? 599 : status, text: answer.slice(answer.indexOf('\r\n\r\n') + 4) }, true)
    }
    expect(problems).toEqual([])
  }, 300_000)

  it("Payload's REST and the console endpoints: every collection × every body and query", async () => {
    for (const t of payloadTargets) {
      for (const [name, body, type] of BODIES) {
        if (t.method === 'GET') continue
        check(`${t.method} ${t.path} [${name}]`, await send(t.method, t.path, { headers: { cookie, 'Content-Type': type }, body }), false)
      }
      for (const q of QUERIES) {
        const sep = t.path.includes('?') ? '&' : '?'
        check(`${t.method} ${t.path}${sep}${q.slice(0, 40)}`, await send(t.method, `${t.path}${sep}${q}`, { headers: { cookie } }), false)
      }
    }
    expect(problems).toEqual([])
  }, 300_000)

  it('absolute-form targets, malformed request lines and escapes', async () => {
    for (const target of ['http://other.example/api/v1/meta', 'http://other.example/admin', 'https://127.0.0.1/api/v1/content?limit=1e309', '*', 'other.example/x']) {
      const answer = await sendRaw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])
      if (!(status < 500)) problems.push(`GET ${target} → ${answer.slice(0, 80)}`)
      expect(answer.toLowerCase()).not.toMatch(/\r\nlocation: [^\r]*other\.example/)
    }
    for (const path of ['/api/v1/content/%E0%A4%A', '/api/v1/tags/%00', '/api/tags/%ZZ', `/api/v1/${'a/'.repeat(2000)}`]) {
      check(`GET ${path.slice(0, 40)}`, await send('GET', path, { headers: { cookie } }), path.startsWith('/api/v1'))
    }
    expect(problems).toEqual([])
  })
})

describe('round 3 of the corpus: announced sizes, foreign origins, encodings inside XML, dates that are no dates', () => {
  /** Only the head of a request, announcing a body that never comes: the answer must not wait for it. */
  function announce(method: string, path: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers)
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('')}Content-Length: ${512 * 1024 * 1024}\r\nConnection: close\r\n\r\n`,
        ),
      )
      let out = ''
      socket.on('data', (d) => (out += d))
      socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1])))
      socket.on('error', reject)
      setTimeout(() => socket.destroy(), 3_000)
    })
  }

  it('every write route (API, Payload REST, console endpoints) announcing 512 MiB: 413 at once, unread', async () => {
    const writes = [...v1Targets, ...payloadTargets].filter((t) => t.method !== 'GET')
    for (const t of writes) {
      const status = await announce(t.method, t.path, { 'Content-Type': 'application/json', Cookie: cookie, Authorization: `Bearer ${token}`, Origin: `http://127.0.0.1:${port}` })
      if (status !== 413) problems.push(`${t.method} ${t.path} announcing 512 MiB → ${status}`)
    }
    expect(problems).toEqual([])
  }, 120_000)

  it('every Payload REST and console write with the session cookie from a foreign origin: 403 auth.cross_origin', async () => {
    for (const t of payloadTargets.filter((x) => x.method !== 'GET')) {
      for (const origin of ['https://evil.example', 'null', 'http://localhost:5173']) {
        const answer = await send(t.method, t.path, { headers: { cookie, origin, 'Content-Type': 'application/json' }, body: '{}' })
        if (answer.status !== 403 || !answer.text.includes('auth.cross_origin')) problems.push(`${t.method} ${t.path} from ${origin} → ${answer.status}`)
      }
    }
    expect(problems).toEqual([])
  }, 120_000)

  it("Payload's method-override reads (its admin panel's): every collection × every hostile query as a form body, never a 5xx", async () => {
    const collections = [...new Set(payloadTargets.map((t) => t.path.split('/')[2]!))]
    for (const slug of collections) {
      for (const q of QUERIES) {
        const headers = { cookie, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Payload-HTTP-Method-Override': 'GET' }
        check(`POST-as-GET /api/${slug} [${q.slice(0, 40)}]`, await send('POST', `/api/${slug}`, { headers, body: q }), false)
      }
    }
    expect(problems).toEqual([])
  }, 120_000)

  it('SVG uploads in every encoding trick: refused, never a 5xx', async () => {
    const svg = (prolog: string) => Buffer.from(`${prolog}<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
    const tricks: [string, Buffer][] = [
      ['ISO-2022-JP declared, ESC shifts', Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-2022-JP"?><svg xmlns="http://www.w3.org/2000/svg">'), Buffer.from([0x1b, 0x24, 0x42]), Buffer.from('<!--'), Buffer.from([0x1b, 0x28, 0x42]), Buffer.from('<script>alert(1)</script>--></svg>')])],
      ['UTF-16LE with a mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(svg('').toString('latin1'), 'utf16le')])],
      ['UTF-16BE without a mark', Buffer.from(svg('').toString('latin1'), 'utf16le').swap16()],
      ['UTF-7 declared', svg('<?xml version="1.0" encoding="UTF-7"?>')],
      ['windows-1252 declared', svg("<?xml version='1.0' encoding='windows-1252'?>")],
      ['invalid UTF-8', Buffer.concat([svg(''), Buffer.from([0xc0, 0xaf])])],
    ]
    for (const [name, bytes] of tricks) {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/svg+xml' }), 'logo.svg')
      const res = await fetch(`http://127.0.0.1:${port}/api/media`, { method: 'POST', headers: { cookie, origin: `http://127.0.0.1:${port}` }, body: form })
      if (res.status !== 400) problems.push(`${name} → ${res.status} ${(await res.text()).slice(0, 120)}`)
    }
    expect(problems).toEqual([])
  })

  it('every date field of every collection compared with text that is no date: 400, never a 5xx', async () => {
    const app = await testApp()
    for (const c of app.config.collections) {
      for (const f of c.flattenedFields.filter((x) => x.type === 'date')) {
        const answer = await send('GET', `/api/${c.slug}?where[${f.name}][less_than]=yesterday`, { headers: { cookie } })
        check(`GET /api/${c.slug} where ${f.name} < yesterday`, answer, false)
        if (answer.status === 200) problems.push(`${c.slug}.${f.name} compared with "yesterday" → 200`)
      }
    }
    expect(problems).toEqual([])
  })
})
