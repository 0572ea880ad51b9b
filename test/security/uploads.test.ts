/**
 * What an upload must be (src/platform/media/uploadChecks, the media collection's hook): a file name
 * with NUL or control characters is a 400 naming `filename` (it was a 500); an SVG is stored
 * only in the one encoding Payload's check and a browser read alike, UTF-8 (an SVG declaring
 * ISO-2022-JP hid a script from Payload's check: stored XSS). Nothing refused is stored.
 * Files are served under their own policy (no script, a sandbox), over real HTTP.
 */
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { uploadProblem } from '../../src/platform/media/uploadChecks'
import { ADMIN, consoleCookie } from '../auth/helpers'
import { testApp } from '../support/app'
import { startHttpServer, type RunningServer } from '../support/httpServer'

// This file's own folder (test/support/setup.ts): nothing another file uploads meanwhile is in it.
const MEDIA_DIR = path.resolve(process.env.MEDIA_DIR!)
let server: RunningServer
let cookie: string

beforeAll(async () => {
  server = await startHttpServer()
  cookie = await consoleCookie(await testApp(), ADMIN.email, ADMIN.password)
}, 120_000)
afterAll(() => server?.close())

async function upload(name: string, bytes: Buffer, type: string) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
  form.append('_payload', JSON.stringify({ alt: 'an upload' }))
  const res = await fetch(`${server.origin}/api/media`, { method: 'POST', headers: { cookie, origin: server.origin }, body: form })
  return { status: res.status, body: (await res.json()) as any }
}

const svg = (prolog: string, extra = '') => Buffer.from(`${prolog}<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">${extra}<rect width="4" height="4"/></svg>`)
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex')

describe('uploadProblem', () => {
  const file = (name: string, data: Buffer, mimetype = 'image/svg+xml') => uploadProblem({ name, mimetype, data })
  it.each([
    ['a UTF-8 SVG', svg('<?xml version="1.0" encoding="UTF-8"?>'), null],
    ['a UTF-8 SVG with its byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), svg('<?xml version="1.0" encoding="utf-8"?>')]), null],
    ['an SVG with no declaration', svg(''), null],
    ['encoding="ISO-2022-JP"', svg('<?xml version="1.0" encoding="ISO-2022-JP"?>'), 'declares encoding "ISO-2022-JP"'],
    ["encoding='latin1'", svg("<?xml version='1.0' encoding='latin1'?>"), 'declares encoding "latin1"'],
    ['an ESC byte', Buffer.concat([svg(''), Buffer.from([0x1b, 0x24, 0x42])]), 'ESC'],
    ['a NUL byte (UTF-16 without a mark)', Buffer.from(svg('').toString('latin1'), 'utf16le'), 'NUL'],
    ['a UTF-16 byte-order mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<svg/>', 'utf16le')]), 'UTF-16'],
    ['invalid UTF-8', Buffer.concat([svg(''), Buffer.from([0xc3, 0x28])]), 'not valid UTF-8'],
  ])('%s', (_what, data, problem) => {
    const found = file('image.svg', data)
    if (problem === null) expect(found).toBeNull()
    else expect(found).toEqual({ path: 'file', message: expect.stringContaining(problem) })
  })

  it('an SVG named .png or typed as PNG is still read as XML (its first byte is <)', () => {
    expect(file('image.png', svg('<?xml version="1.0" encoding="ISO-2022-JP"?>'), 'image/png')).toMatchObject({ path: 'file' })
  })

  it('a PNG is not XML: no encoding rule applies', () => {
    expect(file('image.png', PNG, 'image/png')).toBeNull()
  })

  it.each(['a\u0000b.png', 'a\u0007b.png', 'a\nb.png', 'a\u007fb.png', 'a\u0085b.png'])('file name %j: filename', (name) => {
    expect(file(name, PNG, 'image/png')).toEqual({ path: 'filename', message: 'The file name must not contain control characters.' })
  })
})

describe('Payload REST over HTTP, as catalog.manage', () => {
  const stored = () => new Set(existsSync(MEDIA_DIR) ? readdirSync(MEDIA_DIR) : [])

  it.each([
    ['a\u0000b.png', 'filename'],
    ['bell\u0007.png', 'filename'],
  ])('a file named %j: 400 naming %s, nothing stored', async (name, field) => {
    const before = stored()
    const answer = await upload(name, PNG, 'image/png')
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({
      errors: [{ message: 'The file name must not contain control characters.' }],
      error: { code: 'validation.failed', details: [{ field, constraint: 'control_characters' }] },
    })
    expect(stored()).toEqual(before)
  })

  it('an SVG declaring ISO-2022-JP: 400 naming file, nothing stored', async () => {
    const before = stored()
    const answer = await upload('logo.svg', svg('<?xml version="1.0" encoding="ISO-2022-JP"?>'), 'image/svg+xml')
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].message).toContain('The following field is invalid: file (An SVG or XML file must be UTF-8')
    expect(stored()).toEqual(before)
  })

  it('a UTF-8 SVG is stored and served under the file policy: no script, a sandbox, nosniff', async () => {
    const answer = await upload('fine.svg', svg('<?xml version="1.0" encoding="UTF-8"?>'), 'image/svg+xml')
    expect(answer.status).toBe(201)
    const file = await fetch(`${server.origin}/api/media/file/${answer.body.doc.filename}`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/svg+xml')
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; font-src 'self' data:; sandbox; frame-ancestors 'none'")
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
  })
})

/** A PNG that declares `width` × `height` pixels (its header) with one row of data: no decoder needs more to read its size. */
function declaredPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const out = Buffer.alloc(12 + data.length)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), 8 + data.length)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale
  const row = deflateSync(Buffer.alloc(1 + width))
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', row), chunk('IEND', Buffer.alloc(0))])
}

describe('images that decode to gigabytes (issue 52.6)', () => {
  it.each([
    [20_000, 20_000],
    [60_000, 60_000],
  ])('a PNG declaring %i × %i pixels: 400 naming the file and the limit, nothing stored', async (width, height) => {
    const before = readdirSync(MEDIA_DIR, { withFileTypes: true }).length
    const name = `huge-${width}.png`
    const answer = await upload(name, declaredPng(width, height), 'image/png')
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body.errors[0].message).toContain('at most 50,000,000')
    expect(answer.body.errors[0].data).toEqual({ field: 'file', constraint: 'max_pixels', limit: 50_000_000, width, height, frames: 1 })
    expect(existsSync(path.join(MEDIA_DIR, name))).toBe(false)
    expect(readdirSync(MEDIA_DIR, { withFileTypes: true }).length).toBe(before)
  })

  it('an image within the limit (7,000 × 7,000 declared) is stored', async () => {
    const answer = await upload('large-but-fine.png', declaredPng(7_000, 7_000), 'image/png')
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    expect(answer.body.doc).toMatchObject({ width: 7000, height: 7000 })
  })
})
